import { Button, Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { MoneyInput } from '../../../shared/ui/MoneyInput.js';
import { amountError } from '../model/amount.js';

/**
 * The step that picks a means and an amount, shared by 'Nouvel approvisionnement' and
 * 'Retirer': the means as a segmented control, the amount (grouped by thousands, integer,
 * not zero: 'Entré non valide' once typed), extra fields (`children`: the bank), then
 * 'Annuler' and the submit button, disabled while the amount or `invalid` says so.
 */
export function AmountStep<M extends string>({
  modeLabel,
  modes,
  mode,
  onModeChange,
  amountLabel,
  amount,
  onAmountChange,
  submitLabel,
  onSubmit,
  onCancel,
  pending = false,
  invalid = false,
  children,
}: {
  modeLabel: string;
  modes: readonly { value: M; label: string }[];
  mode: M;
  onModeChange: (mode: M) => void;
  amountLabel: string;
  amount: number | null;
  onAmountChange: (amount: number | null) => void;
  submitLabel: string;
  onSubmit: () => void;
  onCancel: () => void;
  pending?: boolean;
  invalid?: boolean;
  children?: ReactNode;
}) {
  const { t } = useTranslation('wallet');
  const labelId = useId();
  const [touched, setTouched] = useState(false);
  const amountMsg = amountError(amount);
  return (
    <Stack>
      <div>
        <Text size="sm" fw={500} mb={4} id={labelId}>
          {modeLabel}
        </Text>
        <SegmentedControl
          aria-labelledby={labelId}
          fullWidth
          value={mode}
          onChange={(v) => onModeChange(v as M)}
          data={modes.map((m) => ({ value: m.value, label: m.label }))}
        />
      </div>
      <MoneyInput
        label={amountLabel}
        withAsterisk
        value={amount}
        onChange={(v) => {
          setTouched(true);
          onAmountChange(v);
        }}
        error={touched && amountMsg ? t(amountMsg) : undefined}
      />
      {children}
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          {t('common:cancel')}
        </Button>
        <Button disabled={Boolean(amountMsg) || invalid} loading={pending} onClick={onSubmit}>
          {submitLabel}
        </Button>
      </Group>
    </Stack>
  );
}
