import { Button, Code, Group, Stack, Text, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useIdempotencyKey } from '../../../shared/api/use-idempotency-key.js';
import { AppModal } from '../../../shared/ui/AppModal.js';
import { notify } from '../../../shared/ui/notify.js';
import { validateBankSupply } from '../api/supplies.js';
import { useInvalidateWallet } from '../hooks/use-invalidate-wallet.js';
import { validateSupplySchema, type ValidateSupplyValues } from '../model/forms.js';
import type { Supply } from '../model/types.js';

/**
 * 'Valider l'approvisionnement': shows the bank reference; Valider is enabled
 * only once the super admin has retyped it exactly (35 % wide, as the spec says).
 */
export function ValidateSupplyModal({
  supply,
  onClose,
}: {
  supply: Supply | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('wallet');
  const invalidate = useInvalidateWallet();
  const form = useForm<ValidateSupplyValues>({
    resolver: zodResolver(validateSupplySchema),
    mode: 'onChange',
    defaultValues: { reference: supply?.reference ?? '', typed: '' },
  });
  const key = useIdempotencyKey(form);
  // Another supply to validate: the form starts again with its reference.
  const reference = supply?.reference;
  useEffect(() => {
    if (reference !== undefined) form.reset({ reference, typed: '' });
  }, [reference, form]);
  const close = () => {
    onClose();
    form.reset({ reference: '', typed: '' });
    key.renew();
  };
  const validate = useMutation({
    mutationFn: (values: ValidateSupplyValues) =>
      validateBankSupply(supply!, values.typed, key.current()),
    onSuccess: async () => {
      notify('success', t('adminSupplies.validated'));
      await invalidate();
      close();
    },
    // Spec: supply validation errors are only logged; the list reloads.
    onError: async (error) => {
      console.error('validate supply', error);
      await invalidate();
    },
  });
  return (
    <AppModal
      opened={supply !== null}
      onClose={close}
      title={t('adminSupplies.modalTitle')}
      size="35%"
    >
      <form onSubmit={form.handleSubmit((values) => validate.mutate(values))} noValidate>
        <Stack>
          <Text>{t('adminSupplies.modalText')}</Text>
          <Text>
            {t('adminSupplies.reference')} :{' '}
            <Code fz="md" data-testid="validate-reference">
              {supply?.reference}
            </Code>
          </Text>
          <TextInput
            label={t('adminSupplies.retype')}
            autoComplete="off"
            data-autofocus
            {...form.register('typed')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('common:cancel')}
            </Button>
            <Button type="submit" disabled={!form.formState.isValid} loading={validate.isPending}>
              {t('adminSupplies.validate')}
            </Button>
          </Group>
        </Stack>
      </form>
    </AppModal>
  );
}
