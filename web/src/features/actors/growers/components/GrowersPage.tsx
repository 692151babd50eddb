import { ActionIcon, Button, Group, Text } from '@mantine/core';
import { IconBan, IconEye, IconPlus, IconRestore } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../../shared/api/use-error-text.js';
import { useCurrentUser } from '../../../../shared/auth/current-user.js';
import { can } from '../../../../shared/auth/permissions.js';
import { ROLES } from '../../../../shared/auth/roles.js';
import { toLocalPhone } from '../../../../shared/format/phone.js';
import type { Column } from '../../../../shared/ui/DataTable.js';
import { DownloadButton } from '../../../../shared/ui/DownloadButton.js';
import { ListPage } from '../../../../shared/ui/ListPage.js';
import { notify } from '../../../../shared/ui/notify.js';
import { StatusBadge } from '../../../../shared/ui/StatusBadge.js';
import { downloadSpreadsheet } from '../../../wallet/api/export.js';
import {
  GROWER_STATUSES,
  growersDownloadPath,
  growersQuery,
  type GrowerRow,
  type GrowersSearch,
} from '../api/growers.js';
import { formatArea, isBanned, totalArea } from '../model/grower-form.js';
import { BanGrowerModal, type BanAction } from './BanGrowerModal.js';

/**
 * 'Producteurs' (spec §2.1, §6): search, pagination of 10, 'Télécharger' (.xlsx). The
 * cooperative sees its own growers without the cooperative column and cannot add; the super
 * admin sees all, filters active/banned, bans ('Bannir', confirmed) and reinstates
 * ('Réintégrer'); the others see their cluster's growers. Pushes refresh the list.
 */
export function GrowersPage({
  search,
  onSearchChange,
}: {
  search: GrowersSearch;
  onSearchChange: (next: Partial<GrowersSearch>) => void;
}) {
  const { t, i18n } = useTranslation('growers');
  const errorText = useErrorText();
  const me = useCurrentUser();
  const role = me?.role?.code;
  const isSuperAdmin = role === ROLES.SUPER_ADMIN;
  const isCooperative = role === ROLES.FARMER_ORGANIZATION;
  const list = useQuery(growersQuery(search));
  const [target, setTarget] = useState<BanAction | null>(null);

  const name = (g: GrowerRow) => `${g.user.firstname} ${g.user.lastname}`;
  const columns: Column<GrowerRow>[] = [
    { name: 'lastname', title: t('columns.lastname'), transform: (g) => g.user.lastname },
    {
      name: 'firstname',
      title: t('columns.firstname'),
      transform: (g) =>
        isBanned(g) ? (
          <Group gap="xs" wrap="nowrap">
            <span>{g.user.firstname}</span>
            <StatusBadge kind="danger" label={t('banned')} />
          </Group>
        ) : (
          g.user.firstname
        ),
    },
    { name: 'phone', title: t('columns.phone'), transform: (g) => toLocalPhone(g.user.phone) },
    ...(isCooperative
      ? []
      : [
          {
            name: 'cooperative',
            title: t('columns.cooperative'),
            transform: (g: GrowerRow) => g.farmerOrganization?.label ?? t('noCooperative'),
          },
        ]),
    {
      name: 'areaSown',
      title: t('columns.areaSown'),
      transform: (g) => formatArea(totalArea(g), i18n.language),
    },
    {
      name: 'action',
      title: t('columns.action'),
      transform: (g) => (
        <Group gap={4} wrap="nowrap">
          <ActionIcon
            variant="subtle"
            renderRoot={(props) => (
              <Link {...props} to="/producteurs/show/$id" params={{ id: g.id }} />
            )}
            aria-label={t('view', { name: name(g) })}
          >
            <IconEye size={18} aria-hidden />
          </ActionIcon>
          {can(me, 'grower.ban') &&
            (isBanned(g) ? (
              <Button
                size="compact-sm"
                variant="light"
                leftSection={<IconRestore size={14} aria-hidden />}
                aria-label={t('reinstateAction', { name: name(g) })}
                onClick={() => setTarget({ grower: g, action: 'reinstate' })}
              >
                {t('reinstate')}
              </Button>
            ) : (
              <Button
                size="compact-sm"
                variant="default"
                color="red"
                leftSection={<IconBan size={14} aria-hidden />}
                aria-label={t('banAction', { name: name(g) })}
                onClick={() => setTarget({ grower: g, action: 'ban' })}
              >
                {t('ban')}
              </Button>
            ))}
        </Group>
      ),
    },
  ];

  return (
    <ListPage
      title={t('title')}
      action={
        can(me, 'grower.manage') && (
          <Button
            component={Link}
            to="/producteurs/create"
            leftSection={<IconPlus size={16} aria-hidden />}
          >
            {t('add')}
          </Button>
        )
      }
      search={search}
      onSearchChange={onSearchChange}
      searchPlaceholder={t('searchPlaceholder')}
      statuses={
        isSuperAdmin ? { values: GROWER_STATUSES, label: (s) => t(`statuses.${s}`) } : undefined
      }
      actions={
        <DownloadButton
          disabled={list.data?.count === 0}
          onDownload={async () => {
            try {
              await downloadSpreadsheet(
                growersDownloadPath(me?.id ?? '', search),
                'producteurs.xlsx',
              );
            } catch (error) {
              notify('error', errorText(error));
            }
          }}
        />
      }
      columns={columns}
      list={list}
    >
      {list.isError && (
        <Text c="red.8" role="alert" mt="sm">
          {errorText(list.error)}
        </Text>
      )}
      <BanGrowerModal target={target} onClose={() => setTarget(null)} />
    </ListPage>
  );
}
