import { Button, Group, Stack, Tabs, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../shared/api/use-error-text.js';
import { useCurrentUser } from '../../../shared/auth/current-user.js';
import { can } from '../../../shared/auth/permissions.js';
import { formatDate } from '../../../shared/format/date.js';
import { formatNumber } from '../../../shared/format/money.js';
import type { Column } from '../../../shared/ui/DataTable.js';
import { DownloadButton } from '../../../shared/ui/DownloadButton.js';
import { ListPanel } from '../../../shared/ui/ListPage.js';
import { notify } from '../../../shared/ui/notify.js';
import { listQuery } from '../../../shared/search/list-search.js';
import { PageTitle } from '../../../shared/ui/PageTitle.js';
import { bankAccountQuery, exportSupplies, suppliesQuery, supplyWidget } from '../api/supplies.js';
import { usePaymentWidget } from '../hooks/use-payment-widget.js';
import { useWidgetResult } from '../hooks/use-widget-result.js';
import {
  SUPPLY_STATUSES,
  SUPPLY_TABS,
  type SupplyListSearch,
  type SupplyTab,
} from '../model/search.js';
import { awaitsPayment, type SupplyRow } from '../model/supply-row.js';
import { WIDGET_MESSAGE } from '../model/widget.js';
import { BankInfoModal } from './BankInfoModal.js';
import { CancelSupplyModal } from './CancelSupplyModal.js';
import { SupplyStatusBadge } from './SupplyStatusBadge.js';
import { SupplyModal } from './SupplyModal.js';
import { SupplyStatsCards } from './SupplyStatsCards.js';
import { useRealtime } from '../../../shared/realtime/use-realtime.js';

const inFrame = () => typeof window !== 'undefined' && window.self !== window.top;
/** This page is the payment window opened by the supply modal. */
const fromOpener = () => {
  try {
    return Boolean(window.opener) && window.opener.location.origin === window.location.origin;
  } catch {
    return false;
  }
};

/**
 * 'Approvisionnements': stats, mobile-money/card and bank tabs, 'Nouvel
 * approvisionnement' (`?showModal=1` opens it), 'Télécharger' (both tabs as an .xlsx), and
 * on a supply still waiting for its payment 'Réessayer' (the widget again, same reference)
 * and 'Annuler'. Also the sandbox widget's return page: in the payment window it hands the
 * outcome to the opener and closes.
 */
export function SuppliesPage({
  search,
  onSearchChange,
}: {
  search: SupplyListSearch;
  onSearchChange: (next: Partial<SupplyListSearch>) => void;
}) {
  const { t } = useTranslation('wallet');
  const errorText = useErrorText();
  useRealtime();
  const me = useCurrentUser();
  const tab: SupplyTab = search.tab ?? 'momo-card';
  const bank = useQuery(bankAccountQuery());
  const [bankInfo, setBankInfo] = useState<SupplyRow | null>(null);
  const [cancelling, setCancelling] = useState<SupplyRow | null>(null);
  const [retrying, setRetrying] = useState<string | null>(null);
  const list = useQuery({
    ...suppliesQuery(me?.id ?? '', tab, listQuery(search)),
    enabled: Boolean(me) && !search.transactionId,
  });
  // The widget settled (verified, or closed): the new-supply dialog, if open, is done.
  const payment = usePaymentWidget(me ?? null, () => {
    setRetrying(null);
    if (search.showModal) onSearchChange({ showModal: undefined });
  });
  const widgetResult = useWidgetResult(() =>
    onSearchChange({ transactionId: undefined, reference: undefined, status: undefined }),
  );
  const handled = useRef(false);

  // The widget came back with its outcome (`?transactionId=…&status=…`).
  useEffect(() => {
    if (!search.transactionId || handled.current) return;
    handled.current = true;
    const params = new URLSearchParams(window.location.search);
    const result = {
      type: WIDGET_MESSAGE,
      transactionId: search.transactionId,
      reference: search.reference,
      status: params.get('status') ?? 'FAILED',
    };
    if (fromOpener()) {
      window.opener.postMessage(result, window.location.origin);
      window.close();
    } else if (inFrame()) window.parent.postMessage(result, window.location.origin);
    else widgetResult.mutate(result);
  }, [search.transactionId, search.reference, widgetResult]);

  if (search.transactionId && (inFrame() || fromOpener())) return null;

  /** 'Réessayer': the same reference's widget again (the sandbox's window opens in the click). */
  const retry = (supply: SupplyRow) => {
    payment.prepare();
    setRetrying(supply.reference);
    supplyWidget(supply.reference)
      .then((answer) => payment.show(answer.widget))
      .catch((error: unknown) => {
        payment.abandon();
        setRetrying(null);
        notify('error', errorText(error));
      });
  };

  const columns: Column<SupplyRow>[] = [
    { name: 'reference', title: t('columns.reference') },
    {
      name: 'bank',
      title: t('columns.bank'),
      // The one accepted bank for transfers; the means for mobile money and card.
      transform: (s) =>
        s.paymentMethod === 'BANK'
          ? (bank.data?.bankName ?? s.bank ?? '—')
          : t(`supplies.modes.MOBILE_MONEY`),
    },
    { name: 'amount', title: t('columns.amountFcfa'), transform: (s) => formatNumber(s.amount) },
    { name: 'createdAt', title: t('columns.date'), transform: (s) => formatDate(s.createdAt) },
    {
      name: 'status',
      title: t('columns.status'),
      transform: (s) => (
        <Stack gap={2} align="flex-start">
          <SupplyStatusBadge
            supply={s}
            // Bank tab: INIT is a warning, anything else a success (spec §4); a refused one is not.
            kind={
              tab === 'bank' && s.status !== 'FAILED'
                ? s.status === 'INIT'
                  ? 'warning'
                  : 'success'
                : undefined
            }
          />
          {/* Why: a super admin's reason, or the background check's (no payment in time). */}
          {(s.failureCode === 'REJECTED' || s.failureCode === 'EXPIRED') && s.failureReason && (
            <Text size="xs" c="dark.5" data-testid={`supply-reason-${s.reference}`}>
              {t('supplies.rejectedBecause', { reason: s.failureReason })}
            </Text>
          )}
        </Stack>
      ),
    },
    {
      name: 'action',
      title: t('columns.action'),
      transform: (s) =>
        s.paymentMethod === 'BANK' && s.status === 'INIT' ? (
          <Button
            size="compact-sm"
            variant="subtle"
            onClick={() => setBankInfo(s)}
            aria-label={`${t('supplies.bankInfoTitle')} ${s.reference}`}
          >
            {t('supplies.bankInfoTitle')}
          </Button>
        ) : awaitsPayment(s) ? (
          <Group gap="xs" wrap="nowrap">
            <Button
              size="compact-sm"
              variant="light"
              loading={retrying === s.reference}
              disabled={payment.state === 'verifying' && retrying !== s.reference}
              onClick={() => retry(s)}
              aria-label={t('supplies.retryOf', { reference: s.reference })}
            >
              {t('supplies.retry')}
            </Button>
            <Button
              size="compact-sm"
              variant="subtle"
              color="red"
              onClick={() => setCancelling(s)}
              aria-label={t('supplies.cancelOf', { reference: s.reference })}
            >
              {t('supplies.cancel')}
            </Button>
          </Group>
        ) : (
          '—'
        ),
    },
  ];

  return (
    <>
      <Group justify="space-between" align="flex-start">
        <PageTitle>{t('supplies.title')}</PageTitle>
        {can(me, 'wallet.supply') && (
          <Button
            leftSection={<IconPlus size={16} aria-hidden />}
            onClick={() => onSearchChange({ showModal: 1 })}
          >
            {t('supplies.new')}
          </Button>
        )}
      </Group>
      {me && <SupplyStatsCards userId={me.id} />}
      <ListPanel
        search={search}
        onSearchChange={onSearchChange}
        searchPlaceholder={t('searchPlaceholder')}
        statuses={{ values: SUPPLY_STATUSES, label: (s) => t(`statuses.${s}`) }}
        columns={columns}
        list={list}
        caption={t(`supplies.tabs.${tab}`)}
        actions={
          me && (
            <DownloadButton
              onDownload={async () => {
                try {
                  if (!(await exportSupplies(me.id))) notify('info', t('nothingToDownload'));
                } catch (error) {
                  notify('error', errorText(error));
                }
              }}
            />
          )
        }
        header={
          <Tabs
            value={tab}
            onChange={(v) =>
              onSearchChange({ tab: (v as SupplyTab) ?? undefined, page: undefined })
            }
            mb="md"
          >
            <Tabs.List>
              {SUPPLY_TABS.map((k) => (
                <Tabs.Tab key={k} value={k}>
                  {t(`supplies.tabs.${k}`)}
                </Tabs.Tab>
              ))}
            </Tabs.List>
          </Tabs>
        }
      />
      {me && (
        <SupplyModal
          opened={search.showModal === 1}
          onClose={() => onSearchChange({ showModal: undefined })}
          me={me}
          payment={payment}
          initialMode={tab === 'bank' ? 'BANK' : 'MOBILE_MONEY'}
        />
      )}
      {bankInfo && (
        <BankInfoModal
          opened
          onClose={() => setBankInfo(null)}
          accountNumber={bankInfo.bankAccountNumber ?? bank.data?.accountNumber ?? '—'}
          bankName={bank.data?.bankName}
          reference={bankInfo.reference}
        />
      )}
      <CancelSupplyModal supply={cancelling} onClose={() => setCancelling(null)} />
    </>
  );
}
