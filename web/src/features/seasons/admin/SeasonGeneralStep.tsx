import { ActionIcon, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useIdempotencyKey } from '../../../shared/api/use-idempotency-key.js';
import { useErrorText } from '../../../shared/api/use-error-text.js';
import { formatNumber } from '../../../shared/format/money.js';
import { FormAlert } from '../../../shared/ui/FormAlert.js';
import { notify } from '../../../shared/ui/notify.js';
import {
  createSeason,
  seasonKeys,
  updateSeason,
  type SeasonDetail,
  type SeasonSaved,
} from '../model/index.js';
import { FertilizerLineModal } from './FertilizerLineModal.js';
import { SeasonFields } from './SeasonFields.js';
import {
  emptySeasonForm,
  seasonFormSchema,
  today,
  toSeasonFormValues,
  toSeasonInput,
  type FertilizerLine,
  type SeasonFormValues,
} from './season-form.js';

const linesOf = (season: SeasonDetail | null): FertilizerLine[] =>
  (season?.fertilizers ?? []).map((f) => ({
    fertilizerId: f.fertilizerId,
    typeId: f.typeId,
    amount: f.amount,
    index: f.index,
    label: f.label ?? String(f.fertilizerId),
    typeLabel: f.typeLabel ?? String(f.typeId),
  }));

/**
 * Step 1 'Informations générales' (spec §2.8, §5): the six fields, the fertilizer lines (add,
 * edit, delete), 'Suivant' disabled until the form is valid. 'Suivant' saves: `POST clusters`
 * ('Campagne ajoutée avec succès') or `PATCH clusters/{id}` ('Campagne modifiée avec succès'),
 * then step 2. A refusal shows the server's message (its field messages too).
 */
export function SeasonGeneralStep({
  season,
  onSaved,
}: {
  season: SeasonDetail | null;
  onSaved: (seasonId: number) => void;
}) {
  const { t } = useTranslation('seasons');
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const [lines, setLines] = useState<FertilizerLine[]>(() => linesOf(season));
  const [editing, setEditing] = useState<FertilizerLine | 'new' | null>(null);
  const form = useForm<SeasonFormValues>({
    resolver: zodResolver(seasonFormSchema({ keptFrom: season?.from ?? null })),
    mode: 'onChange',
    defaultValues: season ? toSeasonFormValues(season) : emptySeasonForm,
  });
  const from = useWatch({ control: form.control, name: 'from' });
  const key = useIdempotencyKey(form);

  const save = useMutation({
    mutationFn: (values: SeasonFormValues): Promise<SeasonSaved> => {
      const body = toSeasonInput(values, lines);
      return season ? updateSeason(season.id, body) : createSeason(body, key.current());
    },
    onSuccess: async (saved) => {
      key.renew();
      notify('success', t(season ? 'updated' : 'created'));
      await queryClient.invalidateQueries({ queryKey: seasonKeys.all });
      onSaved(saved.seasonId);
    },
  });

  const saveLine = (line: FertilizerLine) => {
    key.renew();
    setLines((all) =>
      editing === 'new' || editing === null
        ? [...all, line]
        : all.map((l) => (l.fertilizerId === editing.fertilizerId ? line : l)),
    );
    setEditing(null);
  };

  return (
    <form noValidate onSubmit={form.handleSubmit((v) => save.mutate(v))}>
      <Stack>
        <SeasonFields control={form.control} minFrom={season ? undefined : today()} from={from} />
        <Group justify="space-between" mt="md">
          <Title order={2} size="h4">
            {t('fertilizers.title')}
          </Title>
          <Button
            variant="light"
            leftSection={<IconPlus size={16} aria-hidden />}
            onClick={() => setEditing('new')}
          >
            {t('fertilizers.add')}
          </Button>
        </Group>
        <Table.ScrollContainer minWidth={560}>
          <Table striped verticalSpacing="xs">
            <caption className="visually-hidden">{t('fertilizers.title')}</caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('fertilizers.type')}</Table.Th>
                <Table.Th scope="col">{t('fertilizers.fertilizer')}</Table.Th>
                <Table.Th scope="col">{t('fertilizers.amount')}</Table.Th>
                <Table.Th scope="col">{t('fertilizers.index')}</Table.Th>
                <Table.Th scope="col">{t('fertilizers.action')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {lines.length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={5}>
                    <Text ta="center" c="dimmed" py="sm">
                      {t('fertilizers.empty')}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ) : (
                lines.map((line) => (
                  <Table.Tr key={line.fertilizerId}>
                    <Table.Td>{line.typeLabel}</Table.Td>
                    <Table.Td>{line.label}</Table.Td>
                    <Table.Td>{formatNumber(line.amount)}</Table.Td>
                    <Table.Td>{line.index}</Table.Td>
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        <ActionIcon
                          variant="subtle"
                          aria-label={t('fertilizers.edit', { label: line.label })}
                          onClick={() => setEditing(line)}
                        >
                          <IconPencil size={18} aria-hidden />
                        </ActionIcon>
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={t('fertilizers.delete', { label: line.label })}
                          onClick={() => {
                            key.renew();
                            setLines((all) =>
                              all.filter((l) => l.fertilizerId !== line.fertilizerId),
                            );
                          }}
                        >
                          <IconTrash size={18} aria-hidden />
                        </ActionIcon>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))
              )}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        <FormAlert message={save.isError ? errorText(save.error) : null} />
        <Group justify="flex-end">
          <Button
            type="submit"
            disabled={!form.formState.isValid || save.isPending}
            loading={save.isPending}
          >
            {t('wizard.next')}
          </Button>
        </Group>
      </Stack>
      {editing !== null && (
        <FertilizerLineModal
          key={editing === 'new' ? 'new' : editing.fertilizerId}
          line={editing === 'new' ? null : editing}
          taken={lines
            .filter((l) => editing === 'new' || l.fertilizerId !== editing.fertilizerId)
            .map((l) => l.fertilizerId)}
          onSave={saveLine}
          onClose={() => setEditing(null)}
        />
      )}
    </form>
  );
}
