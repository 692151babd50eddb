import { Alert, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../../shared/format/date.js';
import {
  formatAmount,
  formatDay,
  formatQuantity,
  type FundedSeasonLink,
  type SeasonDetail,
} from '../../model/index.js';
import { kgToTonnes } from '../model/quantity.js';
import { AmountCards } from './SeasonAcceptance.js';
import { formatDecimal } from '../../../../shared/format/number.js';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-label={title}>
      <Title order={2} size="h4" mb="md">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

function Fact({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div>
      <Text size="sm" c="dark.4">
        {label}
      </Text>
      <Text fw={600}>{value}</Text>
    </div>
  );
}

/**
 * 'Détails de la saison': general information, the industrial's quantity and its three
 * amounts, its funding against the minimum supply, and the season's fertilizer lines.
 */
export function SeasonDetailsTab({
  season,
  link,
}: {
  season: SeasonDetail;
  link: FundedSeasonLink;
}) {
  const { t } = useTranslation('seasonInvitations');
  const { funding } = link;
  return (
    <Stack gap="lg">
      <Section title={t('detail.general')}>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <Fact label={t('detail.fields.label')} value={season.label} />
          <Fact label={t('detail.fields.from')} value={formatDay(season.from)} />
          <Fact label={t('detail.fields.to')} value={formatDay(season.to)} />
          <Fact
            label={t('detail.fields.unitProductAmount')}
            value={t('detail.perKg', { amount: formatQuantity(season.unitProductAmount) })}
          />
          <Fact
            label={t('detail.fields.productionIndex')}
            value={t('detail.tonsPerHectare', { value: formatDecimal(season.productionIndex) })}
          />
          <Fact
            label={t('detail.fields.quotity')}
            value={t('detail.percent', { value: season.quotity })}
          />
          <Fact
            label={t('detail.fields.active')}
            value={t(season.isActive ? 'detail.yes' : 'detail.no')}
          />
        </SimpleGrid>
      </Section>
      <Section title={t('detail.quantityCost')}>
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <Fact
              label={t('detail.fields.quantity')}
              value={`${t('detail.kg', { value: formatQuantity(link.quantity) })} (${t('accept.tonnes', { value: kgToTonnes(link.quantity) })})`}
            />
            {link.status === 'CONFIRMED' ? (
              <Fact label={t('detail.fields.acceptedAt')} value={formatDate(link.acceptedAt)} />
            ) : (
              <Fact label={t('detail.fields.expiresAt')} value={formatDate(link.expiresAt)} />
            )}
          </SimpleGrid>
          <AmountCards amounts={link} />
        </Stack>
      </Section>
      <Section title={t('detail.funding')}>
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <Fact
              label={t('detail.fields.availableBalance')}
              value={formatAmount(funding.availableBalance)}
            />
            <Fact
              label={t('cards.minSupplyAmount')}
              value={formatAmount(funding.minSupplyAmount)}
            />
            <Fact label={t('detail.fields.shortfall')} value={formatAmount(funding.shortfall)} />
          </SimpleGrid>
          <Alert color={funding.funded ? 'teal' : 'orange'}>
            {t(funding.funded ? 'detail.funded' : 'detail.notFunded')}
          </Alert>
        </Stack>
      </Section>
      <Section title={t('detail.inputs')}>
        {season.fertilizers.length ? (
          <Table.ScrollContainer minWidth={480}>
            <Table striped>
              <caption className="visually-hidden">{t('detail.inputs')}</caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('detail.inputColumns.type')}</Table.Th>
                  <Table.Th scope="col">{t('detail.inputColumns.input')}</Table.Th>
                  <Table.Th scope="col">{t('detail.inputColumns.amount')}</Table.Th>
                  <Table.Th scope="col">{t('detail.inputColumns.index')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {season.fertilizers.map((f) => (
                  <Table.Tr key={f.fertilizerId}>
                    <Table.Td>{f.typeLabel ?? '—'}</Table.Td>
                    <Table.Td>{f.label ?? '—'}</Table.Td>
                    <Table.Td>{formatQuantity(f.amount)}</Table.Td>
                    <Table.Td>{f.index}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        ) : (
          <Text c="dimmed">{t('detail.noInputs')}</Text>
        )}
      </Section>
    </Stack>
  );
}
