import { ActionIcon, Anchor, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconBolt, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useIdempotencyKey } from '../../../shared/api/use-idempotency-key.js';
import { useErrorText } from '../../../shared/api/use-error-text.js';
import { useRealtime } from '../../../shared/realtime/use-realtime.js';
import { useCurrentUser } from '../../../shared/auth/current-user.js';
import { ROLES } from '../../../shared/auth/roles.js';
import { formatDate } from '../../../shared/format/date.js';
import { formatNumber } from '../../../shared/format/money.js';
import { toLocalPhone } from '../../../shared/format/phone.js';
import { DataTable, type Column } from '../../../shared/ui/DataTable.js';
import { notify } from '../../../shared/ui/notify.js';
import { PageTitle } from '../../../shared/ui/PageTitle.js';
import { StatusBadge } from '../../../shared/ui/StatusBadge.js';
import {
  activateSeason,
  formatAmount,
  formatPeriod,
  formatQuantity,
  seasonKeys,
  seasonQuery,
  type SeasonDetail,
  type SeasonFertilizerView,
  type SeasonLink,
} from '../model/index.js';
import { AttachIndustrialModal } from './AttachIndustrialModal.js';
import { DetachIndustrialModal, linkName } from './DetachIndustrialModal.js';
import { InfoGrid, InfoItem } from './SeasonInfo.js';
import { LinkStatusBadge, SeasonStatusBadge } from './SeasonStatusBadge.js';
import { formatDecimal } from '../../../shared/format/number.js';

function Block({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-label={title}>
      <Title order={2} size="h4" mb="md">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

/**
 * The admin season detail (spec §2.7): 'Retour', the label, 'Activer' (disabled once active),
 * 'Ajouter un agrégateur' (three steps), and the blocks Informations générales, Quantité et
 * coût, Liste des intrants, Agrégateurs de la saison (with their invitation's status, and
 * removal while not confirmed). The cluster manager reads it; the super admin acts.
 */
export function SeasonDetailPage({ seasonId }: { seasonId: number }) {
  const { t } = useTranslation('seasons');
  const errorText = useErrorText();
  const me = useCurrentUser();
  const isSuperAdmin = me?.role?.code === ROLES.SUPER_ADMIN;
  const season = useQuery(seasonQuery(seasonId));
  // The `seasons.*` pushes (an acceptance, an expiry, the read side catching up) refresh it.
  useRealtime();
  const [adding, setAdding] = useState(false);

  return (
    <Stack>
      <Anchor component={Link} to="/saisons" size="sm" w="fit-content">
        <Group gap={4}>
          <IconArrowLeft size={16} aria-hidden />
          {t('detail.back')}
        </Group>
      </Anchor>
      {season.isLoading && <Text c="dimmed">{t('common:loading')}</Text>}
      {season.isError && (
        <>
          <PageTitle>{t('detail.notFound')}</PageTitle>
          <Text c="red.8" role="alert">
            {errorText(season.error)}
          </Text>
        </>
      )}
      {season.data && (
        <SeasonDetailContent
          season={season.data}
          isSuperAdmin={isSuperAdmin}
          onAdd={() => setAdding(true)}
        />
      )}
      {adding && season.data && (
        <AttachIndustrialModal seasonId={season.data.id} opened onClose={() => setAdding(false)} />
      )}
    </Stack>
  );
}

function SeasonDetailContent({
  season,
  isSuperAdmin,
  onAdd,
}: {
  season: SeasonDetail;
  isSuperAdmin: boolean;
  onAdd: () => void;
}) {
  const { t } = useTranslation('seasons');
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const key = useIdempotencyKey();
  const [detaching, setDetaching] = useState<SeasonLink | null>(null);
  const activate = useMutation({
    mutationFn: () => activateSeason(season.id, key.current()),
    onSuccess: async () => {
      key.renew();
      notify('success', t('activated', { label: season.label }));
      await queryClient.invalidateQueries({ queryKey: seasonKeys.all });
    },
    onError: (error) => notify('error', errorText(error)),
  });

  type FertilizerRow = SeasonFertilizerView & { id: number };
  const fertilizerColumns: Column<FertilizerRow>[] = [
    { name: 'type', title: t('fertilizers.type'), transform: (f) => f.typeLabel ?? '—' },
    { name: 'label', title: t('fertilizers.fertilizer'), transform: (f) => f.label ?? '—' },
    { name: 'amount', title: t('fertilizers.amount'), transform: (f) => formatNumber(f.amount) },
    { name: 'index', title: t('fertilizers.index'), transform: (f) => String(f.index) },
  ];

  type LinkRow = SeasonLink & { id: number };
  const linkColumns: Column<LinkRow>[] = [
    { name: 'lastname', title: t('industrials.lastname'), transform: (l) => l.user.lastname },
    { name: 'firstname', title: t('industrials.firstname'), transform: (l) => l.user.firstname },
    {
      name: 'phone',
      title: t('industrials.phone'),
      transform: (l) => (l.user.phone ? toLocalPhone(l.user.phone) : '—'),
    },
    {
      name: 'quantity',
      title: t('industrials.quantity'),
      transform: (l) => `${formatQuantity(l.quantity)} ${t('units.kg')}`,
    },
    {
      name: 'productionAmount',
      title: t('industrials.productionAmount'),
      transform: (l) => formatAmount(l.productionAmount),
    },
    {
      name: 'status',
      title: t('industrials.status'),
      transform: (l) => <LinkStatusBadge status={l.status} />,
    },
    ...(isSuperAdmin
      ? [
          {
            name: 'action',
            title: t('industrials.action'),
            transform: (l: LinkRow) =>
              l.status === 'CONFIRMED' ? (
                '—'
              ) : (
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={t('industrials.detach', { name: linkName(l) })}
                  onClick={() => setDetaching(l)}
                >
                  <IconTrash size={18} aria-hidden />
                </ActionIcon>
              ),
          },
        ]
      : []),
  ];

  return (
    <>
      <Group justify="space-between" align="flex-start">
        <Group gap="sm" align="center">
          <PageTitle>{season.label}</PageTitle>
          <Group gap="xs" mb="lg">
            <SeasonStatusBadge status={season.status} />
            {season.isActive && <StatusBadge kind="success" label={t('active')} />}
          </Group>
        </Group>
        {isSuperAdmin && (
          <Group gap="sm">
            <Button
              variant="default"
              renderRoot={(props) => (
                <Link {...props} to="/saisons/create" search={{ id: season.id }} />
              )}
              leftSection={<IconPencil size={16} aria-hidden />}
            >
              {t('detail.edit')}
            </Button>
            <Button
              variant="light"
              disabled={season.isActive}
              loading={activate.isPending}
              leftSection={<IconBolt size={16} aria-hidden />}
              onClick={() => activate.mutate()}
            >
              {t('detail.activate')}
            </Button>
            <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={onAdd}>
              {t('attach.open')}
            </Button>
          </Group>
        )}
      </Group>
      <Block title={t('detail.general')}>
        <InfoGrid>
          <InfoItem label={t('fields.label')}>{season.label}</InfoItem>
          <InfoItem label={t('columns.period')}>{formatPeriod(season.from, season.to)}</InfoItem>
          <InfoItem label={t('detail.createdAt')}>{formatDate(season.createdAt)}</InfoItem>
          <InfoItem label={t('fields.unitProductAmount')}>
            {`${formatNumber(season.unitProductAmount)} ${t('units.perKg')}`}
          </InfoItem>
          <InfoItem label={t('fields.productionIndex')}>
            {`${formatDecimal(season.productionIndex)} ${t('units.tonsPerHa')}`}
          </InfoItem>
          <InfoItem label={t('fields.quotity')}>{`${formatDecimal(season.quotity, 2)} %`}</InfoItem>
        </InfoGrid>
      </Block>
      <Block title={t('detail.quantityAndCost')}>
        <InfoGrid>
          <InfoItem label={t('detail.totalQuantity')}>
            <span data-testid="season-quantity">{formatQuantity(season.quantity)}</span>
          </InfoItem>
          <InfoItem label={t('industrials.productionAmount')}>
            <span data-testid="season-production">{formatAmount(season.productionAmount)}</span>
          </InfoItem>
          <InfoItem label={t('industrials.fertilizerAmount')}>
            {formatAmount(season.fertilizerAmount)}
          </InfoItem>
          <InfoItem label={t('industrials.minSupplyAmount')}>
            <span data-testid="season-min-supply">{formatAmount(season.minSupplyAmount)}</span>
          </InfoItem>
          <InfoItem label={t('detail.industrialsCount')}>{season.industrialsCount}</InfoItem>
        </InfoGrid>
      </Block>
      <Block title={t('fertilizers.title')}>
        <DataTable
          columns={fertilizerColumns}
          rows={season.fertilizers.map((f) => ({ ...f, id: f.fertilizerId }))}
          caption={t('fertilizers.title')}
        />
      </Block>
      <Block title={t('industrials.title')}>
        <DataTable
          columns={linkColumns}
          rows={season.industrials.map((l) => ({ ...l, id: l.linkId }))}
          caption={t('industrials.title')}
        />
      </Block>
      <DetachIndustrialModal link={detaching} onClose={() => setDetaching(null)} />
    </>
  );
}
