import { Button, Group, Stack } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../shared/api/use-error-text.js';
import { AppModal } from '../../../shared/ui/AppModal.js';
import { FormAlert } from '../../../shared/ui/FormAlert.js';
import { notify } from '../../../shared/ui/notify.js';
import { seasonKeys, updateSeason, type SeasonSummary } from '../model/index.js';
import { SeasonFields } from './SeasonFields.js';
import { seasonFormSchema, toSeasonFields, type SeasonFormValues } from './season-form.js';
import { decimalForInput } from '../../../shared/format/number.js';

const valuesOf = (season: SeasonSummary): SeasonFormValues => ({
  label: season.label,
  from: season.from,
  to: season.to,
  unitProductAmount: season.unitProductAmount,
  productionIndex: decimalForInput(season.productionIndex),
  quotity: decimalForInput(season.quotity),
});

/**
 * The small season form (spec §2.9) in a modal: 'Modifier la saison' from the list's pencil,
 * `PATCH clusters/{id}` of the six fields (the fertilizer lines stay), 'Campagne modifiée
 * avec succès'; a refusal (pricing locked once an industrial accepted…) shows the server's
 * message. Mounted per season (keyed).
 */
export function SeasonFormModal({
  season,
  onClose,
}: {
  season: SeasonSummary;
  onClose: () => void;
}) {
  const { t } = useTranslation('seasons');
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const form = useForm<SeasonFormValues>({
    resolver: zodResolver(seasonFormSchema({ keptFrom: season.from })),
    mode: 'onChange',
    defaultValues: valuesOf(season),
  });
  const from = useWatch({ control: form.control, name: 'from' });
  const save = useMutation({
    mutationFn: (values: SeasonFormValues) => updateSeason(season.id, toSeasonFields(values)),
    onSuccess: async () => {
      notify('success', t('updated'));
      await queryClient.invalidateQueries({ queryKey: seasonKeys.all });
      onClose();
    },
  });
  return (
    <AppModal opened onClose={onClose} title={t('form.editTitle')} size={700}>
      <form noValidate onSubmit={form.handleSubmit((v) => save.mutate(v))}>
        <Stack>
          <SeasonFields control={form.control} from={from} />
          <FormAlert message={save.isError ? errorText(save.error) : null} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common:cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t('common:save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </AppModal>
  );
}
