import { Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { Controller, type Control, type FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { DateField } from '../../../../shared/ui/DateField.js';
import { useFieldError } from '../../../../shared/ui/use-field-error.js';
import { LocationCascade } from '../../../locations/index.js';
import { PINEAPPLE_TYPES } from '../api/growers.js';

/**
 * The fields of one plot, at `prefix` of a react-hook-form form (`plots.0` in the grower
 * form, '' in the plot modal): pineapple type, location cascade, plot name, coordinates
 * (numeric, 7 decimals), planting and TIF dates, sown area (ha, decimal, not 0) and
 * estimated production.
 */
export function PlotFields<T extends FieldValues>({
  control,
  prefix,
}: {
  control: Control<T>;
  prefix: string;
}) {
  const { t } = useTranslation('growers');
  const fieldError = useFieldError();
  const c = control as unknown as Control<FieldValues>;
  const at = (name: string) => (prefix ? `${prefix}.${name}` : name);
  const text = (name: string, label: string, props: { required?: boolean; decimal?: boolean }) => (
    <Controller
      control={c}
      name={at(name)}
      render={({ field, fieldState }) => (
        <TextInput
          {...field}
          value={field.value ?? ''}
          label={label}
          withAsterisk={props.required}
          inputMode={props.decimal ? 'decimal' : undefined}
          error={fieldError(fieldState.error)}
        />
      )}
    />
  );
  const date = (name: string, label: string) => (
    <Controller
      control={c}
      name={at(name)}
      render={({ field, fieldState }) => (
        <DateField
          label={label}
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
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Controller
          control={c}
          name={at('productType')}
          render={({ field, fieldState }) => (
            <Select
              label={t('plot.productType')}
              withAsterisk
              data={PINEAPPLE_TYPES.map((type) => ({
                value: type,
                label: t(`plot.types.${type}`),
              }))}
              value={field.value || null}
              onChange={(v) => field.onChange(v ?? '')}
              onBlur={field.onBlur}
              name={field.name}
              error={fieldError(fieldState.error)}
            />
          )}
        />
        {text('location', t('plot.location'), { required: true })}
      </SimpleGrid>
      <LocationCascade control={c} prefix={at('place')} required />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {text('longitude', t('plot.longitude'), { decimal: true })}
        {text('latitude', t('plot.latitude'), { decimal: true })}
        {date('plantingDate', t('plot.plantingDate'))}
        {date('tifDate', t('plot.tifDate'))}
        {text('areaSown', t('plot.areaSown'), { required: true, decimal: true })}
        {text('estimatedProduction', t('plot.estimatedProduction'), { decimal: true })}
      </SimpleGrid>
    </Stack>
  );
}
