import { ActionIcon, Button, Group, Text } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../shared/api/use-error-text.js';
import { useCurrentUser } from '../../../shared/auth/current-user.js';
import type { ListSearch } from '../../../shared/search/list-search.js';
import type { Column } from '../../../shared/ui/DataTable.js';
import { ListPage } from '../../../shared/ui/ListPage.js';
import { notify } from '../../../shared/ui/notify.js';
import { deleteSite, siteKeys, sitesQuery, type Site } from '../api/sites.js';
import type { FormMode } from '../model/forms.js';
import { ConfirmDeleteModal } from './ConfirmDeleteModal.js';
import { PlaceFormOverlay } from './PlaceFormOverlay.js';

/**
 * 'Magasins' (spec seasons §2.10), the industrial's stores: name, address, action (edit,
 * delete after confirmation); 'Ajouter un magasin' opens the place form; search and
 * pagination of 10.
 */
export function StoresPage({
  search,
  onSearchChange,
}: {
  search: ListSearch<never>;
  onSearchChange: (next: ListSearch<never>) => void;
}) {
  const { t } = useTranslation('places');
  const errorText = useErrorText();
  const me = useCurrentUser();
  const queryClient = useQueryClient();
  const list = useQuery({ ...sitesQuery(me?.id ?? '', search), enabled: Boolean(me) });
  const [form, setForm] = useState<{ mode: FormMode; site: Site | null } | null>(null);
  const [deleting, setDeleting] = useState<Site | null>(null);
  const remove = useMutation({
    mutationFn: (site: Site) => deleteSite(site.id),
    onSuccess: async (answer) => {
      notify('success', answer.message);
      setDeleting(null);
      await queryClient.invalidateQueries({ queryKey: siteKeys.sites });
    },
    onError: (error) => notify('error', errorText(error)),
  });

  const columns: Column<Site>[] = [
    { name: 'label', title: t('stores.columns.name'), transform: (s) => s.label },
    { name: 'address', title: t('stores.columns.address'), transform: (s) => s.address },
    {
      name: 'action',
      title: t('stores.columns.action'),
      transform: (s) => (
        <Group gap={4} wrap="nowrap">
          <ActionIcon
            variant="subtle"
            aria-label={t('stores.edit', { name: s.label })}
            onClick={() => setForm({ mode: 'MOD', site: s })}
          >
            <IconPencil size={18} aria-hidden />
          </ActionIcon>
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={t('stores.delete', { name: s.label })}
            onClick={() => setDeleting(s)}
          >
            <IconTrash size={18} aria-hidden />
          </ActionIcon>
        </Group>
      ),
    },
  ];

  return (
    <ListPage
      title={t('stores.title')}
      action={
        <Button
          leftSection={<IconPlus size={16} aria-hidden />}
          onClick={() => setForm({ mode: 'ADD', site: null })}
          disabled={!me}
        >
          {t('stores.add')}
        </Button>
      }
      search={search}
      onSearchChange={onSearchChange}
      searchPlaceholder={t('stores.searchPlaceholder')}
      columns={columns}
      list={list}
    >
      {list.isError && (
        <Text c="red.8" role="alert" mt="sm">
          {errorText(list.error)}
        </Text>
      )}
      {me && (
        <PlaceFormOverlay
          opened={form !== null}
          mode={form?.mode ?? 'ADD'}
          site={form?.site ?? null}
          userId={me.id}
          onClose={() => setForm(null)}
        />
      )}
      <ConfirmDeleteModal
        opened={deleting !== null}
        title={t('stores.deleteTitle')}
        text={t('stores.deleteText', { name: deleting?.label ?? '' })}
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onClose={() => setDeleting(null)}
      />
    </ListPage>
  );
}
