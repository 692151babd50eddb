import { ActionIcon, Button, Group, Text } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../shared/api/use-error-text.js';
import type { ListSearch } from '../../../shared/search/list-search.js';
import type { Column } from '../../../shared/ui/DataTable.js';
import { ListPage } from '../../../shared/ui/ListPage.js';
import { notify } from '../../../shared/ui/notify.js';
import { deleteZone, siteKeys, zonesQuery, type Zone } from '../api/sites.js';
import type { FormMode } from '../model/forms.js';
import { ConfirmDeleteModal } from './ConfirmDeleteModal.js';
import { ZoneFormOverlay } from './ZoneFormOverlay.js';

/**
 * 'Zones de couverture' (the spec has the form, not the list): the industrial's zones with
 * their number of points; add, edit (the zone form) and delete after confirmation; search
 * and pagination of 10.
 */
export function ZonesPage({
  search,
  onSearchChange,
}: {
  search: ListSearch<never>;
  onSearchChange: (next: ListSearch<never>) => void;
}) {
  const { t } = useTranslation('places');
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const list = useQuery(zonesQuery(search));
  const [form, setForm] = useState<{ mode: FormMode; zone: Zone | null } | null>(null);
  const [deleting, setDeleting] = useState<Zone | null>(null);
  const remove = useMutation({
    mutationFn: (zone: Zone) => deleteZone(zone.id),
    onSuccess: async (answer) => {
      notify('success', answer.message);
      setDeleting(null);
      await queryClient.invalidateQueries({ queryKey: siteKeys.zones });
    },
    onError: (error) => notify('error', errorText(error)),
  });

  const columns: Column<Zone>[] = [
    { name: 'name', title: t('zones.columns.name'), transform: (z) => z.name },
    {
      name: 'points',
      title: t('zones.columns.points'),
      transform: (z) => t('zones.points', { count: z.coordinates.length }),
    },
    {
      name: 'action',
      title: t('zones.columns.action'),
      transform: (z) => (
        <Group gap={4} wrap="nowrap">
          <ActionIcon
            variant="subtle"
            aria-label={t('zones.edit', { name: z.name })}
            onClick={() => setForm({ mode: 'MOD', zone: z })}
          >
            <IconPencil size={18} aria-hidden />
          </ActionIcon>
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={t('zones.delete', { name: z.name })}
            onClick={() => setDeleting(z)}
          >
            <IconTrash size={18} aria-hidden />
          </ActionIcon>
        </Group>
      ),
    },
  ];

  return (
    <ListPage
      title={t('zones.title')}
      action={
        <Button
          leftSection={<IconPlus size={16} aria-hidden />}
          onClick={() => setForm({ mode: 'ADD', zone: null })}
        >
          {t('zones.add')}
        </Button>
      }
      search={search}
      onSearchChange={onSearchChange}
      searchPlaceholder={t('zones.searchPlaceholder')}
      columns={columns}
      list={list}
    >
      {list.isError && (
        <Text c="red.8" role="alert" mt="sm">
          {errorText(list.error)}
        </Text>
      )}
      <ZoneFormOverlay
        opened={form !== null}
        mode={form?.mode ?? 'ADD'}
        zone={form?.zone ?? null}
        onClose={() => setForm(null)}
      />
      <ConfirmDeleteModal
        opened={deleting !== null}
        title={t('zones.deleteTitle')}
        text={t('zones.deleteText', { name: deleting?.name ?? '' })}
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onClose={() => setDeleting(null)}
      />
    </ListPage>
  );
}
