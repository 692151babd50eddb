import { Paper } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../../../shared/auth/current-user.js';
import { ROLES } from '../../../../shared/auth/roles.js';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import type { RequestType, RequestsSearch } from '../model/requests.js';
import { RequestsList } from './RequestsList.js';

/**
 * A grower requests page (spec §2.4) of one type: 'Demande d'intrants', 'Demandes d'avances
 * sur ananas' (the industrial's own, a cooperative's growers'), 'Demandes de financements
 * social' (the SFD's own). The industrial (INPUT, PINEAPLE) and the SFD (SOCIAL) decide; the
 * cooperative reads.
 */
export function RequestsPage({
  type,
  search,
  onSearchChange,
}: {
  type: RequestType;
  search: RequestsSearch;
  onSearchChange: (next: Partial<RequestsSearch>) => void;
}) {
  const { t } = useTranslation('seasonRequests');
  const me = useCurrentUser();
  const role = me?.role?.code;
  const canDecide = type === 'SOCIAL' ? role === ROLES.SFD : role === ROLES.INDUSTRIAL;
  return (
    <>
      <PageTitle>{t(`titles.${type}`)}</PageTitle>
      <Paper withBorder p="md" radius="md">
        {me && (
          <RequestsList
            type={type}
            owner={type === 'SOCIAL' ? 'social' : { userId: me.id }}
            search={search}
            onSearchChange={onSearchChange}
            canDecide={canDecide}
          />
        )}
      </Paper>
    </>
  );
}
