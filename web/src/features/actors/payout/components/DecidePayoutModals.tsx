import { Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../../shared/api/use-error-text.js';
import { AppModal } from '../../../../shared/ui/AppModal.js';
import { FormAlert } from '../../../../shared/ui/FormAlert.js';
import { notify } from '../../../../shared/ui/notify.js';
import { useFieldError } from '../../../../shared/ui/use-field-error.js';
import {
  approvePayoutRequest,
  PAYOUT_REQUESTS_KEY,
  rejectPayoutRequest,
} from '../api/payout-requests.js';
import { rejectSchema, type RejectValues } from '../model/payout-form.js';
import type { PayoutRequest } from '../model/types.js';
import { AccountSummary } from './AccountSummary.js';

/** Who, the current account and the one asked for, side by side. */
function RequestSummary({ request }: { request: PayoutRequest }) {
  const { t } = useTranslation('payout');
  return (
    <Stack gap="xs">
      <Text>
        {t('decide.member', {
          name: `${request.member.firstname} ${request.member.lastname}`,
          requester: `${request.requestedBy.firstname} ${request.requestedBy.lastname}`,
        })}
      </Text>
      <Group grow align="flex-start">
        <div>
          <Text size="sm" fw={500}>
            {t('columns.current')}
          </Text>
          <AccountSummary account={request.current} />
        </div>
        <div>
          <Text size="sm" fw={500}>
            {t('columns.proposed')}
          </Text>
          <AccountSummary account={request.proposed} />
        </div>
      </Group>
      {request.comment && (
        <Text size="sm" c="dark.5">
          {t('decide.comment', { comment: request.comment })}
        </Text>
      )}
    </Stack>
  );
}

/** 'Approuver': the new account replaces the old one for the payments to come. */
export function ApprovePayoutModal({
  request,
  onClose,
}: {
  request: PayoutRequest | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('payout');
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const approve = useMutation({
    mutationFn: (id: string) => approvePayoutRequest(id),
    onSuccess: async () => {
      notify('success', t('decide.approved'));
      await queryClient.invalidateQueries({ queryKey: PAYOUT_REQUESTS_KEY });
      onClose();
    },
    onError: async () => queryClient.invalidateQueries({ queryKey: PAYOUT_REQUESTS_KEY }),
  });
  const { reset } = approve;
  useEffect(() => reset(), [request?.id, reset]);
  return (
    <AppModal opened={request !== null} onClose={onClose} title={t('decide.approveTitle')}>
      {request && (
        <Stack>
          <RequestSummary request={request} />
          <Text size="sm">{t('decide.approveText')}</Text>
          <FormAlert message={approve.error ? errorText(approve.error) : null} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common:cancel')}
            </Button>
            <Button loading={approve.isPending} onClick={() => approve.mutate(request.id)}>
              {t('decide.approve')}
            </Button>
          </Group>
        </Stack>
      )}
    </AppModal>
  );
}

/** 'Rejeter': with the reason (required); the account stays as it is. */
export function RejectPayoutModal({
  request,
  onClose,
}: {
  request: PayoutRequest | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('payout');
  const errorText = useErrorText();
  const fieldError = useFieldError();
  const queryClient = useQueryClient();
  const form = useForm<RejectValues>({
    resolver: zodResolver(rejectSchema),
    mode: 'onTouched',
    defaultValues: { reason: '' },
  });
  const reject = useMutation({
    mutationFn: (values: RejectValues) => rejectPayoutRequest(request!.id, values.reason.trim()),
    onSuccess: async () => {
      notify('success', t('decide.rejected'));
      await queryClient.invalidateQueries({ queryKey: PAYOUT_REQUESTS_KEY });
      onClose();
    },
    onError: async () => queryClient.invalidateQueries({ queryKey: PAYOUT_REQUESTS_KEY }),
  });
  const { reset } = reject;
  useEffect(() => {
    form.reset({ reason: '' });
    reset();
  }, [request?.id, form, reset]);
  return (
    <AppModal opened={request !== null} onClose={onClose} title={t('decide.rejectTitle')}>
      {request && (
        <form onSubmit={form.handleSubmit((values) => reject.mutate(values))} noValidate>
          <Stack>
            <RequestSummary request={request} />
            <Textarea
              label={t('decide.reason')}
              withAsterisk
              autosize
              minRows={2}
              maxLength={500}
              data-autofocus
              {...form.register('reason')}
              error={fieldError(form.formState.errors.reason)}
            />
            <FormAlert message={reject.error ? errorText(reject.error) : null} />
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                {t('common:cancel')}
              </Button>
              <Button type="submit" color="red" loading={reject.isPending}>
                {t('decide.reject')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </AppModal>
  );
}
