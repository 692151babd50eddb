import { SimpleGrid, TextInput } from '@mantine/core';
import { Controller, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { DateField } from '../../../shared/ui/DateField.js';
import { MoneyInput } from '../../../shared/ui/MoneyInput.js';
import { useFieldError } from '../../../shared/ui/use-field-error.js';
import { parseDay, type SeasonFormValues } from './season-form.js';

/**
 * The season's six fields (spec §2.8 step 1, §2.9): name, start and end dates, price of a kg
 * of pineapple (F CFA), yield per hectare (t), quotity (%). `minFrom`: the start date's
 * earliest day offered by the picker (today on create).
 */
export function SeasonFields({
  control,
  minFrom,
  from,
}: {
  control: Control<SeasonFormValues>;
  minFrom?: string;
  /** The start date chosen: the end date's picker starts there. */
  from?: string | null;
}) {
  const { t } = useTranslation('seasons');
  const fieldError = useFieldError();
  const decimal = (name: 'productionIndex' | 'quotity', label: string, unit: string) => (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <TextInput
          {...field}
          label={label}
          withAsterisk
          inputMode="decimal"
          rightSection={unit}
          rightSectionWidth={48}
          error={fieldError(fieldState.error)}
        />
      )}
    />
  );
  const date = (name: 'from' | 'to', label: string, minDate?: string) => (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <DateField
          label={label}
          withAsterisk
          minDate={minDate}
          dateParser={parseDay}
          clearable={false}
          value={field.value ?? null}
          onChange={(v) => field.onChange(v ?? null)}
          onBlur={field.onBlur}
          name={field.name}
          error={fieldError(fieldState.error)}
        />
      )}
    />
  );
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <Controller
        control={control}
        name="label"
        render={({ field, fieldState }) => (
          <TextInput
            {...field}
            label={t('fields.label')}
            withAsterisk
            error={fieldError(fieldState.error)}
          />
        )}
      />
      <Controller
        control={control}
        name="unitProductAmount"
        render={({ field, fieldState }) => (
          <MoneyInput
            label={t('fields.unitProductAmount')}
            withAsterisk
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            name={field.name}
            error={fieldError(fieldState.error)}
          />
        )}
      />
      {date('from', t('fields.from'), minFrom)}
      {date('to', t('fields.to'), from ?? minFrom)}
      {decimal('productionIndex', t('fields.productionIndex'), t('units.tonsPerHa'))}
      {decimal('quotity', t('fields.quotity'), '%')}
    </SimpleGrid>
  );
}
