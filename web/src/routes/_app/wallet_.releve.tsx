import { Stack, Text } from '@mantine/core';
import { createFileRoute } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { StatementView } from '../../features/wallet/statement/components/StatementView.js';
import { useCurrentUser } from '../../shared/auth/current-user.js';
import { PageTitle } from '../../shared/ui/PageTitle.js';
import { guardRoute } from './-guard.js';

/**
 * A wallet's statement and point-in-time balance: the signed-in user's own wallet, or
 * `?walletId=` (the auditor and the administrators, from the audit screen; the API refuses
 * anyone else).
 */
export const Route = createFileRoute('/_app/wallet_/releve')({
  validateSearch: z.object({ walletId: z.guid().optional().catch(undefined) }),
  beforeLoad: ({ context }) => guardRoute('walletStatement', context.user),
  component: function WalletStatement() {
    const { t } = useTranslation('audit');
    const { walletId } = Route.useSearch();
    const user = useCurrentUser();
    const id = walletId ?? user?.walletId ?? null;
    return (
      <Stack gap="lg">
        <PageTitle>{t('statement.pageTitle')}</PageTitle>
        {id ? <StatementView walletId={id} /> : <Text>{t('statement.noWallet')}</Text>}
      </Stack>
    );
  },
});
