import { SegmentedControl } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../../../shared/auth/current-user.js';
import { ROLES } from '../../../../shared/auth/roles.js';
import type { RequestType, RequestsSearch } from '../model/requests.js';
import { RequestsList } from './RequestsList.js';

const SEASON_TYPES = ['INPUT', 'PINEAPLE'] as const satisfies readonly RequestType[];

/**
 * The 'Demandes' tab of the industrial's season detail (spec §2.4): the INPUT and PINEAPLE
 * requests of this season addressed to the industrial, with the status tabs, search,
 * pagination, multi-select and the accept / reject flows (only the industrial itself decides).
 */
export function SeasonRequestsTab({
  seasonId,
  industrialUserId,
}: {
  seasonId: number;
  industrialUserId: string;
}) {
  const { t } = useTranslation('seasonRequests');
  const me = useCurrentUser();
  const [type, setType] = useState<RequestType>('INPUT');
  const [search, setSearch] = useState<RequestsSearch>({});
  const own = me?.id === industrialUserId && me?.role?.code === ROLES.INDUSTRIAL;
  return (
    <RequestsList
      key={type}
      type={type}
      owner={{ userId: industrialUserId }}
      seasonId={seasonId}
      search={search}
      onSearchChange={(next) => setSearch((prev) => ({ ...prev, ...next }))}
      canDecide={own}
      header={
        <SegmentedControl
          mb="md"
          aria-label={t('listTypeTabs')}
          value={type}
          onChange={(value) => {
            setType(value as RequestType);
            setSearch({});
          }}
          data={SEASON_TYPES.map((value) => ({ value, label: t(`typeTabsLabels.${value}`) }))}
        />
      }
    />
  );
}
