import { Button, Group, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { AppModal } from '../../../shared/ui/AppModal.js';
import { MoneyInput } from '../../../shared/ui/MoneyInput.js';
import { useFieldError } from '../../../shared/ui/use-field-error.js';
import { fertilizersQuery, fertilizerTypesQuery } from '../model/index.js';
import {
  emptyFertilizerLine,
  fertilizerLineSchema,
  toFertilizerLine,
  toFertilizerLineValues,
  type FertilizerLine,
  type FertilizerLineValues,
} from './season-form.js';

/**
 * A fertilizer line of the wizard (spec §2.8, §5): type select and fertilizer select (the
 * actors' catalogue), unit amount (F CFA per kg, min 1), dose per hectare (kg, min 1); a
 * fertilizer once per season. Nothing is sent: the line joins the wizard's list, saved with
 * the season. Mounted per line (keyed).
 */
export function FertilizerLineModal({
  line,
  taken,
  onSave,
  onClose,
}: {
  /** The line edited, or null for 'Ajouter un intrant'. */
  line: FertilizerLine | null;
  /** The fertilizer ids of the other lines. */
  taken: number[];
  onSave: (line: FertilizerLine) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('seasons');
  const fieldError = useFieldError();
  const form = useForm<FertilizerLineValues>({
    resolver: zodResolver(fertilizerLineSchema(taken)),
    mode: 'onChange',
    defaultValues: line ? toFertilizerLineValues(line) : emptyFertilizerLine,
  });
  const typeId = useWatch({ control: form.control, name: 'typeId' });
  const types = useQuery(fertilizerTypesQuery);
  const fertilizers = useQuery(fertilizersQuery(typeId ? Number(typeId) : null));

  const submit = form.handleSubmit((values) => {
    const type = types.data?.find((ty) => String(ty.id) === values.typeId);
    const fertilizer = fertilizers.data?.find((f) => String(f.id) === values.fertilizerId);
    onSave(
      toFertilizerLine(values, {
        label: fertilizer?.label ?? line?.label ?? '',
        typeLabel: type?.label ?? line?.typeLabel ?? '',
      }),
    );
  });

  return (
    <AppModal
      opened
      onClose={onClose}
      size={700}
      title={t(line ? 'fertilizers.editTitle' : 'fertilizers.addTitle')}
    >
      <form
        noValidate
        onSubmit={(event) => {
          // The modal's form sits inside the wizard's: its submit stays here.
          event.stopPropagation();
          void submit(event);
        }}
      >
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Controller
              control={form.control}
              name="typeId"
              render={({ field, fieldState }) => (
                <Select
                  label={t('fertilizers.type')}
                  withAsterisk
                  data={(types.data ?? []).map((ty) => ({ value: String(ty.id), label: ty.label }))}
                  value={field.value || null}
                  onChange={(v) => {
                    field.onChange(v ?? '');
                    form.setValue('fertilizerId', '', { shouldValidate: false });
                  }}
                  onBlur={field.onBlur}
                  name={field.name}
                  error={fieldError(fieldState.error)}
                />
              )}
            />
            <Controller
              control={form.control}
              name="fertilizerId"
              render={({ field, fieldState }) => (
                <Select
                  label={t('fertilizers.fertilizer')}
                  withAsterisk
                  searchable
                  disabled={!typeId}
                  placeholder={typeId ? undefined : t('fertilizers.chooseTypeFirst')}
                  data={(fertilizers.data ?? []).map((f) => ({
                    value: String(f.id),
                    label: f.label,
                  }))}
                  value={field.value || null}
                  onChange={(v) => field.onChange(v ?? '')}
                  onBlur={field.onBlur}
                  name={field.name}
                  error={fieldError(fieldState.error)}
                />
              )}
            />
            <Controller
              control={form.control}
              name="amount"
              render={({ field, fieldState }) => (
                <MoneyInput
                  label={t('fertilizers.amount')}
                  withAsterisk
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  name={field.name}
                  error={fieldError(fieldState.error)}
                />
              )}
            />
            <Controller
              control={form.control}
              name="index"
              render={({ field, fieldState }) => (
                <TextInput
                  {...field}
                  label={t('fertilizers.index')}
                  withAsterisk
                  inputMode="decimal"
                  rightSection={t('units.kgPerHa')}
                  rightSectionWidth={56}
                  error={fieldError(fieldState.error)}
                />
              )}
            />
          </SimpleGrid>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common:cancel')}
            </Button>
            <Button type="submit" disabled={!form.formState.isValid}>
              {t('common:save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </AppModal>
  );
}
