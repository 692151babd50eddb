import { Alert, Button, Group, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../../shared/api/use-error-text.js';
import { AppModal } from '../../../../shared/ui/AppModal.js';
import { DigitsInput } from '../../../../shared/ui/DigitsInput.js';
import { FormAlert } from '../../../../shared/ui/FormAlert.js';
import { notify } from '../../../../shared/ui/notify.js';
import { useFieldError } from '../../../../shared/ui/use-field-error.js';
import { PAYOUT_REQUESTS_KEY, requestPayoutChange } from '../api/payout-requests.js';
import {
  defaultsOf,
  PAYOUT_BANKS,
  payoutRequestSchema,
  toAccount,
  type PayoutRequestValues,
} from '../model/payout-form.js';
import type { PayoutAccount } from '../model/types.js';
import { AccountSummary } from './AccountSummary.js';

/**
 * 'Demander un changement' of a member's payout account, for the edit and detail screens of
 * growers, carriers, cooperatives and suppliers (which show the account read-only): a modal
 * with the current account and the complete new one. Nothing changes until a super admin
 * other than the requester approves it; the old and the new number are told by SMS.
 */
export function RequestPayoutChangeButton({
  userId,
  current,
  onRequested,
}: {
  /** The member's user id (not its growers/carriers row id). */
  userId: string;
  /** Its account as the API answers it (E.164 numbers). */
  current: PayoutAccount;
  onRequested?: () => void;
}) {
  const { t } = useTranslation('payout');
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button variant="light" onClick={() => setOpened(true)}>
        {t('request.button')}
      </Button>
      {opened && (
        <RequestPayoutChangeModal
          userId={userId}
          current={current}
          onClose={() => setOpened(false)}
          onRequested={onRequested}
        />
      )}
    </>
  );
}

function RequestPayoutChangeModal({
  userId,
  current,
  onClose,
  onRequested,
}: {
  userId: string;
  current: PayoutAccount;
  onClose: () => void;
  onRequested?: () => void;
}) {
  const { t } = useTranslation('payout');
  const errorText = useErrorText();
  const fieldError = useFieldError();
  const queryClient = useQueryClient();
  const schema = useMemo(() => payoutRequestSchema(current), [current]);
  const form = useForm<PayoutRequestValues>({
    resolver: zodResolver(schema),
    mode: 'onTouched',
    defaultValues: defaultsOf(current),
  });
  const request = useMutation({
    mutationFn: (values: PayoutRequestValues) =>
      requestPayoutChange({
        userId,
        ...toAccount(values),
        comment: values.comment.trim() || null,
      }),
    onSuccess: async () => {
      notify('success', t('request.sent'));
      await queryClient.invalidateQueries({ queryKey: PAYOUT_REQUESTS_KEY });
      onRequested?.();
      onClose();
    },
  });
  const { errors } = form.formState;
  return (
    <AppModal opened onClose={onClose} title={t('request.title')}>
      <form onSubmit={form.handleSubmit((values) => request.mutate(values))} noValidate>
        <Stack>
          <Alert color="blue" variant="light">
            {t('request.intro')}
          </Alert>
          <div>
            <Text size="sm" fw={500}>
              {t('request.current')}
            </Text>
            <AccountSummary account={current} />
          </div>
          <DigitsInput
            label={t('request.momo')}
            description={t('request.momoHint')}
            withAsterisk
            maxLength={10}
            autoComplete="off"
            data-autofocus
            {...form.register('momoAccountNumber')}
            error={fieldError(errors.momoAccountNumber)}
          />
          <Controller
            control={form.control}
            name="bankName"
            render={({ field }) => (
              <Select
                label={t('request.bankName')}
                placeholder={t('request.noBank')}
                clearable
                data={[...PAYOUT_BANKS]}
                value={field.value || null}
                onChange={(v) => field.onChange(v ?? null)}
                onBlur={field.onBlur}
                error={fieldError(errors.bankName)}
              />
            )}
          />
          <TextInput
            label={t('request.bankAccount')}
            maxLength={40}
            autoComplete="off"
            {...form.register('bankAccountNumber')}
            error={fieldError(errors.bankAccountNumber)}
          />
          <Textarea
            label={t('request.comment')}
            autosize
            minRows={2}
            maxLength={500}
            {...form.register('comment')}
            error={fieldError(errors.comment)}
          />
          <FormAlert message={request.error ? errorText(request.error) : null} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common:cancel')}
            </Button>
            <Button type="submit" loading={request.isPending}>
              {t('request.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </AppModal>
  );
}
