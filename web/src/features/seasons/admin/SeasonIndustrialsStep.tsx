import { ActionIcon, Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../shared/api/use-error-text.js';
import { DataTable, type Column } from '../../../shared/ui/DataTable.js';
import {
  formatAmount,
  formatQuantity,
  seasonLinksQuery,
  type SeasonDetail,
  type SeasonLink,
} from '../model/index.js';
import { AttachIndustrialModal } from './AttachIndustrialModal.js';
import { DetachIndustrialModal, linkName } from './DetachIndustrialModal.js';
import { LinkStatusBadge } from './SeasonStatusBadge.js';

type LinkRow = SeasonLink & { id: number };

/**
 * Step 2 'Agrégateurs' (spec §2.8): the season's industrials (Industriel, Quantité désirée,
 * Total à payer, Montant des engrais, Montant min à appro, Action edit/delete), 'Ajouter un
 * agrégateur' (the three-step modal), 'Enregistrer' (to the season's detail). An industrial
 * that accepted can no longer be edited or removed.
 */
export function SeasonIndustrialsStep({
  season,
  onPrevious,
}: {
  season: SeasonDetail;
  onPrevious: () => void;
}) {
  const { t } = useTranslation('seasons');
  const errorText = useErrorText();
  const navigate = useNavigate();
  const links = useQuery(seasonLinksQuery(season.id));
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<SeasonLink | null>(null);
  const [detaching, setDetaching] = useState<SeasonLink | null>(null);
  const rows: LinkRow[] | undefined = links.data?.data.map((l) => ({ ...l, id: l.linkId }));

  const columns: Column<LinkRow>[] = [
    {
      name: 'industrial',
      title: t('industrials.industrial'),
      transform: (l) => (
        <Group gap="xs" wrap="nowrap">
          <span>{linkName(l)}</span>
          <LinkStatusBadge status={l.status} />
        </Group>
      ),
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
      name: 'fertilizerAmount',
      title: t('industrials.fertilizerAmount'),
      transform: (l) => formatAmount(l.fertilizerAmount),
    },
    {
      name: 'minSupplyAmount',
      title: t('industrials.minSupplyAmount'),
      transform: (l) => formatAmount(l.minSupplyAmount),
    },
    {
      name: 'action',
      title: t('industrials.action'),
      transform: (l) => {
        const locked = l.status === 'CONFIRMED';
        return (
          <Group gap={4} wrap="nowrap">
            <ActionIcon
              variant="subtle"
              disabled={locked}
              title={locked ? t('industrials.confirmedLocked') : undefined}
              aria-label={t('industrials.edit', { name: linkName(l) })}
              onClick={() => setEditing(l)}
            >
              <IconPencil size={18} aria-hidden />
            </ActionIcon>
            <ActionIcon
              variant="subtle"
              color="red"
              disabled={locked}
              title={locked ? t('industrials.confirmedLocked') : undefined}
              aria-label={t('industrials.detach', { name: linkName(l) })}
              onClick={() => setDetaching(l)}
            >
              <IconTrash size={18} aria-hidden />
            </ActionIcon>
          </Group>
        );
      },
    },
  ];

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2} size="h4">
          {t('industrials.title')}
        </Title>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setAdding(true)}>
          {t('attach.open')}
        </Button>
      </Group>
      <DataTable
        columns={columns}
        rows={rows}
        loading={links.isLoading}
        caption={t('industrials.title')}
      />
      {links.isError && (
        <Text c="red.8" role="alert">
          {errorText(links.error)}
        </Text>
      )}
      <Group justify="space-between">
        <Button variant="default" onClick={onPrevious}>
          {t('wizard.previous')}
        </Button>
        <Button
          onClick={() =>
            void navigate({ to: '/saisons/show/$id', params: { id: String(season.id) } })
          }
        >
          {t('wizard.save')}
        </Button>
      </Group>
      {adding && (
        <AttachIndustrialModal seasonId={season.id} opened onClose={() => setAdding(false)} />
      )}
      {editing && (
        <AttachIndustrialModal
          key={editing.linkId}
          seasonId={season.id}
          opened
          onClose={() => setEditing(null)}
          edit={{
            industrial: { id: editing.userId, name: linkName(editing) },
            quantity: editing.quantity,
          }}
        />
      )}
      <DetachIndustrialModal link={detaching} onClose={() => setDetaching(null)} />
    </Stack>
  );
}
