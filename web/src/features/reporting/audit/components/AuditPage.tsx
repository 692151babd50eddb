import { Anchor, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../../../shared/format/money.js';
import type { ListSearch } from '../../../../shared/search/list-search.js';
import type { Column } from '../../../../shared/ui/DataTable.js';
import { ListPanel } from '../../../../shared/ui/ListPage.js';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { walletAccountsQuery, type WalletAccount } from '../api/audit.js';
import { IntegrityPanel } from './IntegrityPanel.js';

/**
 * The auditor's screen (ROLE_ACCOUNTING, and the administrators): 'Intégrité du registre',
 * then every wallet (search, pages of 10) with a link to its statement and point-in-time
 * balance. Read-only.
 */
export function AuditPage({
  search,
  onSearchChange,
}: {
  search: ListSearch;
  onSearchChange: (next: ListSearch) => void;
}) {
  const { t } = useTranslation('audit');
  const wallets = useQuery(walletAccountsQuery(search.page ?? 1, search.q));
  const rows = wallets.data
    ? { ...wallets.data, data: wallets.data.data.map((w) => ({ ...w, id: w.walletId })) }
    : undefined;
  const columns: Column<WalletAccount & { id: string }>[] = [
    {
      name: 'name',
      title: t('columns.holder'),
      transform: (w) => (
        <Anchor
          renderRoot={(props) => (
            <Link {...props} to="/wallet/releve" search={{ walletId: w.walletId }} />
          )}
        >
          {`${w.lastname} ${w.firstname}`}
        </Anchor>
      ),
    },
    { name: 'email', title: t('columns.email'), transform: (w) => w.email ?? '—' },
    {
      name: 'role',
      title: t('columns.role'),
      transform: (w) => t(`common:roles.${w.role}`, { defaultValue: w.role }),
    },
    { name: 'balance', title: t('columns.balance'), transform: (w) => formatMoney(w.balance) },
    {
      name: 'availableBalance',
      title: t('columns.availableBalance'),
      transform: (w) => formatMoney(w.availableBalance),
    },
  ];
  return (
    <Stack gap="lg">
      <PageTitle>{t('title')}</PageTitle>
      <IntegrityPanel />
      <ListPanel
        search={search}
        onSearchChange={onSearchChange}
        searchPlaceholder={t('wallets.search')}
        columns={columns}
        list={{ data: rows, isLoading: wallets.isLoading }}
        caption={t('wallets.title')}
      />
    </Stack>
  );
}
