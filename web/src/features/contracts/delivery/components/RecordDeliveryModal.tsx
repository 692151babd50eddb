import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../../shared/api/use-error-text.js';
import { groupThousands } from '../../../../shared/format/money.js';
import { AppModal } from '../../../../shared/ui/AppModal.js';
import { DateField } from '../../../../shared/ui/DateField.js';
import { FormAlert } from '../../../../shared/ui/FormAlert.js';
import { useFieldError } from '../../../../shared/ui/use-field-error.js';
import { recordDelivery, type DeliveryContract } from '../api/delivery-contracts.js';
import {
  TONNES,
  deliveryFormSchema,
  normalizeTonnes,
  parseDay,
  today,
  type DeliveryFormInput,
  type DeliveryFormValues,
} from '../model/contract-form.js';
import { decimalForInput, formatDecimal } from '../../../../shared/format/number.js';

/**
 * Worth of a delivered quantity, as the run computes it (docs/contracts.md "Settlement rule"):
 * floor(deliveredKg × amount / quantityKg) on integers; shown as an estimate only.
 */
export function deliveryWorth(deliveredTonnes: string, contract: DeliveryContract): number | null {
  const text = normalizeTonnes(deliveredTonnes);
  if (!TONNES.test(text) || (text.split('.')[1] ?? '').length > 3) return null;
  const kg = (t: string) => {
    const [whole, fraction = ''] = t.split('.');
    return BigInt(whole!) * 1000n + BigInt((fraction + '000').slice(0, 3));
  };
  const contracted = kg(contract.quantity);
  if (contracted === 0n) return null;
  return Number((kg(text) * BigInt(contract.amount)) / contracted);
}

/**
 * The aggregator's weighed-delivery screen: the quantity weighed on reception (tonnes, at most
 * 3 decimals) and the day (not after today); it recalls the contracted quantity and shows
 * what this delivery is worth at the contract's price. CONFIRMED → DELIVERED.
 */
export function RecordDeliveryModal({
  contract,
  opened,
  onClose,
  onDone,
}: {
  contract: DeliveryContract;
  opened: boolean;
  onClose: () => void;
  onDone: () => void | Promise<void>;
}) {
  const { t } = useTranslation('contracts');
  const fieldError = useFieldError();
  const errorText = useErrorText();
  const form = useForm<DeliveryFormInput, unknown, DeliveryFormValues>({
    resolver: zodResolver(deliveryFormSchema()),
    mode: 'onChange',
    defaultValues: { quantity: decimalForInput(contract.quantity), deliveredOn: today() },
  });
  const save = useMutation({
    mutationFn: (values: DeliveryFormValues) =>
      recordDelivery(contract.id, {
        quantity: Number(values.quantity),
        deliveredOn: values.deliveredOn,
      }),
    onSuccess: () => onDone(),
  });
  useEffect(() => {
    if (opened) {
      save.reset();
      form.reset({ quantity: decimalForInput(contract.quantity), deliveredOn: today() });
    }
    // Reset each time the screen opens only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened]);
  const quantity = useWatch({ control: form.control, name: 'quantity' });
  const worth = deliveryWorth(quantity ?? '', contract);
  const { errors, isValid } = form.formState;

  return (
    <AppModal opened={opened} onClose={onClose} title={t('actions.deliverTitle')}>
      <form onSubmit={form.handleSubmit((values) => save.mutate(values))} noValidate>
        <Stack>
          <Text size="sm">{t('actions.deliverText')}</Text>
          <Text size="sm" fw={500}>
            {t('actions.contracted', {
              quantity: formatDecimal(contract.quantity),
              amount: groupThousands(String(contract.amount)),
            })}
          </Text>
          <TextInput
            label={t('actions.deliveredQuantity')}
            withAsterisk
            inputMode="decimal"
            data-autofocus
            error={fieldError(errors.quantity)}
            {...form.register('quantity')}
          />
          <Controller
            control={form.control}
            name="deliveredOn"
            render={({ field }) => (
              <DateField
                label={t('actions.deliveredOn')}
                withAsterisk
                // The API refuses a day before the contract's (its UTC day).
                minDate={contract.createdAt.slice(0, 10)}
                dateParser={parseDay}
                maxDate={today()}
                clearable={false}
                value={field.value || null}
                onChange={(value) => field.onChange(value ?? '')}
                onBlur={field.onBlur}
                name={field.name}
                error={fieldError(errors.deliveredOn)}
              />
            )}
          />
          {worth !== null && !errors.quantity && (
            <Alert color="blue" variant="light" data-testid="delivery-worth">
              {t('actions.estimate', { amount: groupThousands(String(worth)) })}
            </Alert>
          )}
          <FormAlert message={save.isError ? errorText(save.error) : null} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common:cancel')}
            </Button>
            <Button type="submit" loading={save.isPending} disabled={!isValid}>
              {t('common:save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </AppModal>
  );
}
