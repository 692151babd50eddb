import { Anchor, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../../shared/api/use-error-text.js';
import { formatDate } from '../../../../shared/format/date.js';
import { formatNumber } from '../../../../shared/format/money.js';
import { FormAlert } from '../../../../shared/ui/FormAlert.js';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { StatusBadge } from '../../../../shared/ui/StatusBadge.js';
import { supplyContractQuery, type Party, type SupplyContract } from '../api/input-supply.js';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="sm" c="dimmed" component="dt">
        {label}
      </Text>
      <Text fw={500} component="dd" m={0}>
        {children}
      </Text>
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder p="lg" radius="md">
      <Title order={2} size="h4" mb="md">
        {title}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} component="dl" m={0}>
        {children}
      </SimpleGrid>
    </Paper>
  );
}

/**
 * ShowContratIntrant (/contrats/fourniture/{id}): one input supply contract — the season, the
 * aggregator and the provider, the fertilizer, the quantity and what was delivered, the price
 * per kg, the amount held, delivered, still held and released. A French message when the API
 * refuses (404, 403).
 */
export function InputSupplyContractPage({ id }: { id: string }) {
  const { t } = useTranslation('contracts');
  const errorText = useErrorText();
  const contract = useQuery(supplyContractQuery(id));
  return (
    <>
      <Anchor component={Link} to="/contrats/fourniture" mb="sm" c="dark.6" display="inline-block">
        <Group gap={4}>
          <IconArrowLeft size={16} aria-hidden />
          {t('supply.back')}
        </Group>
      </Anchor>
      {contract.isError ? (
        <>
          <PageTitle>{t('supply.notFound')}</PageTitle>
          <FormAlert message={errorText(contract.error)} />
        </>
      ) : !contract.data ? (
        <Text c="dimmed">{t('common:loading')}</Text>
      ) : (
        <SupplyDetail contract={contract.data} />
      )}
    </>
  );
}

function SupplyDetail({ contract: c }: { contract: SupplyContract }) {
  const { t } = useTranslation('contracts');
  const name = (p: Party) => `${p.firstname} ${p.lastname}`;
  const money = (amount: number) => t('supply.fcfa', { value: formatNumber(amount) });
  const kg = (value: number) => t('supply.kg', { value: formatNumber(value) });
  const day = (iso: string) => {
    const [y, m, d] = iso.split('-');
    return `${d}/${m}/${y}`;
  };
  return (
    <Stack>
      <Group gap="sm" align="center">
        <PageTitle>{t('supply.detailTitle', { reference: c.reference })}</PageTitle>
        <div style={{ marginBottom: 'var(--mantine-spacing-lg)' }} data-testid="supply-status">
          <StatusBadge
            kind={c.status === 'ACTIVE' ? 'success' : 'danger'}
            label={t(`supply.statuses.${c.status}`, { defaultValue: c.status })}
          />
        </div>
      </Group>
      <Section title={t('supply.parties')}>
        <Field label={t('supply.aggregator')}>{name(c.industrial)}</Field>
        <Field label={t('supply.aggregatorPhone')}>{c.industrial.phone ?? '—'}</Field>
        <Field label={t('supply.columns.provider')}>{name(c.provider)}</Field>
        <Field label={t('supply.providerPhone')}>{c.provider.phone ?? '—'}</Field>
        <Field label={t('supply.season')}>
          {t('supply.seasonDates', {
            label: c.season.label,
            from: day(c.season.fromDate),
            to: day(c.season.toDate),
          })}
        </Field>
        <Field label={t('supply.columns.createdAt')}>{formatDate(c.createdAt)}</Field>
      </Section>
      <Section title={t('supply.terms')}>
        <Field label={t('supply.columns.fertilizer')}>
          {`${c.fertilizer.label} (${c.fertilizer.type})`}
        </Field>
        <Field label={t('supply.columns.quantity')}>{kg(c.quantity)}</Field>
        <Field label={t('supply.delivered')}>{kg(c.deliveredQuantity)}</Field>
        <Field label={t('supply.unitAmount')}>{money(c.unitAmount)}</Field>
        <Field label={t('supply.columns.amount')}>{money(c.amount)}</Field>
        <Field label={t('supply.deliveredAmount')}>{money(c.deliveredAmount)}</Field>
        <Field label={t('supply.remainingAmount')}>{money(c.remainingAmount)}</Field>
        {c.status !== 'ACTIVE' && (
          <Field label={t('supply.releasedAmount')}>{money(c.releasedAmount)}</Field>
        )}
      </Section>
    </Stack>
  );
}
