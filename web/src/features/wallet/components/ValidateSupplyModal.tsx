import { Button, Code, Group, Stack, Text, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useIdempotencyKey } from '../../../shared/api/use-idempotency-key.js';
import { useErrorText } from '../../../shared/api/use-error-text.js';
import { AppModal } from '../../../shared/ui/AppModal.js';
import { notify } from '../../../shared/ui/notify.js';
import { validateBankSupply } from '../api/supplies.js';
import { useInvalidateWallet } from '../hooks/use-invalidate-wallet.js';
import { validateSupplySchema, type ValidateSupplyValues } from '../model/forms.js';
import type { SupplyRow } from '../model/supply-row.js';
import { SupplyRequester } from './SupplyRequester.js';

/**
 * 'Valider l'approvisionnement': shows who asked (name, organisation) and the bank
 * reference; Valider is enabled only once the super admin has retyped it exactly (35 % wide,
 * as the spec says). A refusal (a rejected supply…) is shown as the server says it.
 */
export function ValidateSupplyModal({
  supply,
  onClose,
}: {
  supply: SupplyRow | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('wallet');
  const errorText = useErrorText();
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
    // A refusal the admin can hit (the supply was rejected or validated meanwhile) is shown
    // as the server says it, where the spec only logs it. The list reloads.
    onError: async (error) => {
      console.error('validate supply', error);
      notify('error', errorText(error));
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
          {supply && (
            <div data-testid="validate-requester">
              <Text size="sm" c="dark.5">
                {t('adminSupplies.requester')}
              </Text>
              <SupplyRequester supply={supply} />
            </div>
          )}
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
