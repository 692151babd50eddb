import { Button, Code, Group, Stack, Text, Textarea } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useIdempotencyKey } from '../../../shared/api/use-idempotency-key.js';
import { useErrorText } from '../../../shared/api/use-error-text.js';
import { formatNumber } from '../../../shared/format/money.js';
import { AppModal } from '../../../shared/ui/AppModal.js';
import { notify } from '../../../shared/ui/notify.js';
import { useFieldError } from '../../../shared/ui/use-field-error.js';
import { rejectBankSupply } from '../api/supplies.js';
import { useInvalidateWallet } from '../hooks/use-invalidate-wallet.js';
import { rejectSupplySchema, type RejectSupplyValues } from '../model/forms.js';
import type { SupplyRow } from '../model/supply-row.js';
import { SupplyRequester } from './SupplyRequester.js';

/**
 * 'Rejeter l'approvisionnement' (super admin): who asked, the reference and amount, and the
 * reason the requester will read (required). The server records the rejection (FAILED) and
 * tells the requester (push, mail); its refusal (already validated…) is shown as it says it.
 */
export function RejectSupplyModal({
  supply,
  onClose,
}: {
  supply: SupplyRow | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('wallet');
  const errorText = useErrorText();
  const fieldError = useFieldError();
  const invalidate = useInvalidateWallet();
  const form = useForm<RejectSupplyValues>({
    resolver: zodResolver(rejectSupplySchema),
    mode: 'onChange',
    defaultValues: { reason: '' },
  });
  const key = useIdempotencyKey(form);
  const reference = supply?.reference;
  useEffect(() => {
    if (reference !== undefined) form.reset({ reason: '' });
  }, [reference, form]);
  const close = () => {
    onClose();
    form.reset({ reason: '' });
    key.renew();
  };
  const reject = useMutation({
    mutationFn: (values: RejectSupplyValues) =>
      rejectBankSupply(supply!, values.reason.trim(), key.current()),
    onSuccess: async () => {
      notify('success', t('adminSupplies.rejected'));
      await invalidate();
      close();
    },
    onError: async (error) => {
      notify('error', errorText(error));
      await invalidate();
    },
  });
  return (
    <AppModal opened={supply !== null} onClose={close} title={t('adminSupplies.rejectTitle')}>
      <form onSubmit={form.handleSubmit((values) => reject.mutate(values))} noValidate>
        <Stack>
          <Text>{t('adminSupplies.rejectText')}</Text>
          {supply && (
            <Group gap="xl" align="flex-start">
              <Stack gap={0}>
                <Text size="sm" c="dark.5">
                  {t('adminSupplies.requester')}
                </Text>
                <SupplyRequester supply={supply} />
              </Stack>
              <Stack gap={0}>
                <Text size="sm" c="dark.5">
                  {t('adminSupplies.reference')}
                </Text>
                <Code fz="sm" data-testid="reject-reference">
                  {supply.reference}
                </Code>
              </Stack>
              <Stack gap={0}>
                <Text size="sm" c="dark.5">
                  {t('columns.amountFcfa')}
                </Text>
                <Text size="sm">{formatNumber(supply.amount)}</Text>
              </Stack>
            </Group>
          )}
          <Textarea
            label={t('adminSupplies.reason')}
            withAsterisk
            autosize
            minRows={2}
            maxLength={500}
            data-autofocus
            {...form.register('reason')}
            error={fieldError(form.formState.errors.reason)}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('common:cancel')}
            </Button>
            <Button
              type="submit"
              color="red"
              disabled={!form.formState.isValid}
              loading={reject.isPending}
            >
              {t('adminSupplies.reject')}
            </Button>
          </Group>
        </Stack>
      </form>
    </AppModal>
  );
}
