import { SimpleGrid, Stack, Tabs, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ContractsStats, DebtBlock, PersonalDashboard } from '../api/dashboard.js';
import { yearBars } from '../model/months.js';
import { DASHBOARD_TABS, type DashboardTab } from '../model/presets.js';
import { formatMoney, formatNumber, formatTonnes } from './format.js';
import { MonthlyChart } from './MonthlyChart.js';
import { StatCard } from './StatCard.js';

type Card = { name: string; value: string | null };

function Cards({ cards, loading, ns }: { cards: Card[]; loading: boolean; ns: string }) {
  const { t } = useTranslation('dashboard');
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: cards.length >= 4 ? 4 : cards.length }}>
      {cards.map((c) => (
        <StatCard
          key={c.name}
          name={c.name}
          label={t(`${ns}.${c.name}`)}
          value={c.value}
          loading={loading}
        />
      ))}
    </SimpleGrid>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Stack gap="sm" component="section" aria-label={title}>
      <Title order={2} size="h4">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

/** Producers' debts still owed: total, input advances, microfinance, pineapple advances. */
function DebtCards({
  debt,
  loading,
  only,
}: {
  debt?: DebtBlock;
  loading: boolean;
  only?: 'financial';
}) {
  const { t } = useTranslation('dashboard');
  const money = (v: number | undefined) => (v === undefined ? null : formatMoney(v));
  const cards: Card[] =
    only === 'financial'
      ? [{ name: 'financialDebt', value: money(debt?.financialDebt) }]
      : [
          { name: 'totalDebt', value: money(debt?.totalDebt) },
          { name: 'inputAdvanceDebt', value: money(debt?.inputAdvanceDebt) },
          { name: 'financialDebt', value: money(debt?.financialDebt) },
          { name: 'pineappleAdvanceDebt', value: money(debt?.pineappleAdvanceDebt) },
        ];
  return (
    <Section title={t('sections.debt')}>
      <Cards cards={cards} loading={loading} ns="debt" />
    </Section>
  );
}

/** The two charts of the year the range ends in: tonnes bought, debts outstanding. */
function Charts({
  data,
  purchasesTitle,
  showPurchases = true,
}: {
  data: Pick<ContractsStats, 'purchases' | 'debts' | 'range'> | undefined;
  purchasesTitle: string;
  showPurchases?: boolean;
}) {
  const { t, i18n } = useTranslation('dashboard');
  const months = t('months', { returnObjects: true }) as string[];
  const year = Number((data?.range.to ?? new Date().toISOString()).slice(0, 4));
  const lang = i18n.language;
  return (
    <SimpleGrid cols={{ base: 1, md: showPurchases ? 2 : 1 }}>
      {showPurchases && (
        <MonthlyChart
          name="purchases"
          title={t(purchasesTitle, { year })}
          unit={t('charts.tonnes')}
          bars={yearBars(data?.purchases ?? [], (p) => p.tonnes, year, months, data?.range.to)}
          format={(v) => formatTonnes(v, lang)}
          color="#2b8a3e"
        />
      )}
      <MonthlyChart
        name="debts"
        title={t('charts.debts', { year })}
        unit={t('charts.fcfa')}
        bars={yearBars(data?.debts ?? [], (p) => p.amount, year, months, data?.range.to)}
        format={formatMoney}
        color="#e8590c"
      />
    </SimpleGrid>
  );
}

/**
 * The contracts' dashboard: global cards (expected deliveries, expected tonnes, amount to
 * pay), the tabs Livraison / Transport / Avance sur intrants with their cards, the producers'
 * debts and the charts.
 */
export function ContractsFigures({
  stats,
  loading,
  tab,
  onTabChange,
}: {
  stats: ContractsStats | undefined;
  loading: boolean;
  tab: DashboardTab;
  onTabChange: (tab: DashboardTab) => void;
}) {
  const { t, i18n } = useTranslation('dashboard');
  const lang = i18n.language;
  const n = (v: number | undefined) => (v === undefined ? null : formatNumber(v));
  const money = (v: number | undefined) => (v === undefined ? null : formatMoney(v));
  const tonnes = (v: number | undefined) => (v === undefined ? null : formatTonnes(v, lang));
  const tabCards: Record<DashboardTab, Card[]> = {
    delivery: [
      { name: 'totalContracts', value: n(stats?.delivery.totalContracts) },
      { name: 'totalToConfirm', value: n(stats?.delivery.totalToConfirm) },
      { name: 'availableProduction', value: tonnes(stats?.delivery.availableProduction) },
      { name: 'executedContracts', value: n(stats?.delivery.executedContracts) },
      { name: 'delayedContracts', value: n(stats?.delivery.delayedContracts) },
      { name: 'canceledContracts', value: n(stats?.delivery.canceledContracts) },
    ],
    carriage: [
      { name: 'totalContracts', value: n(stats?.carriage.totalContracts) },
      { name: 'totalToConfirm', value: n(stats?.carriage.totalToConfirm) },
      { name: 'executedContracts', value: n(stats?.carriage.executedContracts) },
    ],
    inputAdvance: [
      { name: 'totalContracts', value: n(stats?.inputAdvance.totalContracts) },
      { name: 'totalAmount', value: money(stats?.inputAdvance.totalAmount) },
      { name: 'recoveredAmount', value: money(stats?.inputAdvance.recoveredAmount) },
      { name: 'remainingAmount', value: money(stats?.inputAdvance.remainingAmount) },
    ],
  };
  return (
    <Stack gap="xl">
      <Section title={t('sections.globals')}>
        <Cards
          ns="globals"
          loading={loading}
          cards={[
            { name: 'waitingDelivery', value: n(stats?.globals.waitingDelivery) },
            { name: 'waitingQuantity', value: tonnes(stats?.globals.waitingQuantity) },
            { name: 'amountToPaid', value: money(stats?.globals.amountToPaid) },
          ]}
        />
      </Section>
      <Section title={t('sections.contracts')}>
        <Tabs value={tab} onChange={(v) => v && onTabChange(v as DashboardTab)} keepMounted={false}>
          <Tabs.List mb="md">
            {DASHBOARD_TABS.map((key) => (
              <Tabs.Tab key={key} value={key}>
                {t(`tabs.${key}`)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {DASHBOARD_TABS.map((key) => (
            <Tabs.Panel key={key} value={key}>
              <Cards ns={`${key}Cards`} cards={tabCards[key]} loading={loading} />
            </Tabs.Panel>
          ))}
        </Tabs>
      </Section>
      <DebtCards debt={stats?.debt} loading={loading} />
      <Charts data={stats} purchasesTitle="charts.purchases" />
    </Stack>
  );
}

/**
 * A grower's or a cooperative's dashboard (its contracts, payments received, debts, its
 * deliveries and debts per month), or an SFD's (its social financings and what is still owed).
 */
export function PersonalFigures({
  data,
  loading,
  sfd,
}: {
  data: PersonalDashboard | undefined;
  loading: boolean;
  /** The SFD's figures (its financings), known from the role before the answer comes. */
  sfd: boolean;
}) {
  const { t, i18n } = useTranslation('dashboard');
  const lang = i18n.language;
  const n = (v: number | undefined) => (v === undefined ? null : formatNumber(v));
  const money = (v: number | undefined) => (v === undefined ? null : formatMoney(v));
  const tonnes = (v: number | undefined) => (v === undefined ? null : formatTonnes(v, lang));
  if (sfd) {
    const f = data?.financing ?? undefined;
    return (
      <Stack gap="xl">
        <Section title={t('sections.financing')}>
          <Cards
            ns="financing"
            loading={loading}
            cards={[
              { name: 'count', value: n(f?.count) },
              { name: 'principal', value: money(f?.principal) },
              { name: 'recovered', value: money(f?.recovered) },
              { name: 'outstanding', value: money(f?.outstanding) },
            ]}
          />
        </Section>
        <DebtCards debt={data?.debt} loading={loading} only="financial" />
        <Charts data={data} purchasesTitle="charts.deliveries" showPurchases={false} />
      </Stack>
    );
  }
  const c = data?.contracts ?? undefined;
  return (
    <Stack gap="xl">
      <Section title={t('sections.myContracts')}>
        <Cards
          ns="personal"
          loading={loading}
          cards={[
            { name: 'totalContracts', value: n(c?.totalContracts) },
            { name: 'totalToConfirm', value: n(c?.totalToConfirm) },
            { name: 'waitingDelivery', value: n(c?.waitingDelivery) },
            { name: 'waitingQuantity', value: tonnes(c?.waitingQuantity) },
            { name: 'availableProduction', value: tonnes(c?.availableProduction) },
            { name: 'executedContracts', value: n(c?.executedContracts) },
            { name: 'delayedContracts', value: n(c?.delayedContracts) },
            { name: 'amount', value: money(c?.amount) },
          ]}
        />
      </Section>
      <Section title={t('sections.payments')}>
        <Cards
          ns="payments"
          loading={loading}
          cards={[
            { name: 'count', value: n(data?.payments?.count) },
            { name: 'total', value: money(data?.payments?.total) },
          ]}
        />
      </Section>
      <DebtCards debt={data?.debt} loading={loading} />
      <Charts data={data} purchasesTitle="charts.deliveries" />
    </Stack>
  );
}
