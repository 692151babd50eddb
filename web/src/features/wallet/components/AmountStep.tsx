import { Button, Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { useId, type ReactNode } from 'react';
import { Controller, useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { MoneyInput } from '../../../shared/ui/MoneyInput.js';
import { useFieldError } from '../../../shared/ui/use-field-error.js';
import type { AmountValues, PaymentMeans } from '../model/forms.js';

/**
 * The step that picks a means and an amount, shared by 'Nouvel approvisionnement' and
 * 'Retirer', inside the form (react-hook-form, `FormProvider`) of either: the means as a
 * segmented control, the amount (grouped by thousands, integer, not zero: 'Entré non valide'
 * once typed), extra fields (`children`: the bank, or where a withdrawal goes), then 'Annuler'
 * and the submit button, disabled while the form is invalid or `blocked`.
 */
export function AmountStep({
  meansLabel,
  means,
  amountLabel,
  submitLabel,
  onCancel,
  pending = false,
  blocked = false,
  messageValues,
  children,
}: {
  meansLabel: string;
  means: readonly { value: PaymentMeans; label: string }[];
  amountLabel: string;
  submitLabel: string;
  onCancel: () => void;
  pending?: boolean;
  /** Something outside the form prevents submitting (a withdrawal with nowhere to go). */
  blocked?: boolean;
  /** The values the amount's messages name (`{max}`, `{missing}`). */
  messageValues?: (amount: number | null) => Record<string, string>;
  children?: ReactNode;
}) {
  const { t } = useTranslation('wallet');
  const fieldError = useFieldError();
  const labelId = useId();
  const { control, formState } = useFormContext<AmountValues>();
  return (
    <Stack>
      <div>
        <Text size="sm" fw={500} mb={4} id={labelId}>
          {meansLabel}
        </Text>
        <Controller
          control={control}
          name="means"
          render={({ field }) => (
            <SegmentedControl
              aria-labelledby={labelId}
              fullWidth
              value={field.value}
              onChange={(v) => field.onChange(v as PaymentMeans)}
              data={means.map((m) => ({ value: m.value, label: m.label }))}
            />
          )}
        />
      </div>
      <Controller
        control={control}
        name="amount"
        render={({ field, fieldState }) => (
          <MoneyInput
            label={amountLabel}
            withAsterisk
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            error={fieldError(fieldState.error, messageValues?.(field.value))}
          />
        )}
      />
      {children}
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          {t('common:cancel')}
        </Button>
        <Button type="submit" disabled={!formState.isValid || blocked} loading={pending}>
          {submitLabel}
        </Button>
      </Group>
    </Stack>
  );
}
