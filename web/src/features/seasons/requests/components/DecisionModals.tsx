import { Alert, Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { AppModal } from '../../../../shared/ui/AppModal.js';
import { useFieldError } from '../../../../shared/ui/use-field-error.js';
import { rejectSchema, type RejectForm } from '../model/requests.js';

/**
 * 'Êtes-vous sûr de vouloir accepter cette demande ?' (or 'ces demandes' for several), the
 * warning 'Cette action est irréversible', 'Annuler' / 'Oui, accepter'.
 */
export function AcceptRequestsModal({
  count,
  opened,
  pending,
  onClose,
  onConfirm,
}: {
  count: number;
  opened: boolean;
  pending: boolean;
  onClose: () => void;
  onConfirm: () => void;
}) {
  const { t } = useTranslation('seasonRequests');
  const { t: common } = useTranslation();
  return (
    <AppModal opened={opened} onClose={onClose} title={t('acceptModal.title', { count })}>
      <Stack>
        <Text>{t('acceptModal.question', { count })}</Text>
        <Alert color="orange" icon={<IconAlertTriangle size={18} aria-hidden />}>
          {t('acceptModal.irreversible')}
        </Alert>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={pending}>
            {common('cancel')}
          </Button>
          <Button onClick={onConfirm} loading={pending}>
            {t('acceptModal.confirm')}
          </Button>
        </Group>
      </Stack>
    </AppModal>
  );
}

/** The reject modal: the reason ('Motif', required) and 'Valider'. */
export function RejectRequestsModal({
  count,
  opened,
  pending,
  onClose,
  onConfirm,
}: {
  count: number;
  opened: boolean;
  pending: boolean;
  onClose: () => void;
  onConfirm: (reason: string) => void;
}) {
  const { t } = useTranslation('seasonRequests');
  const { t: common } = useTranslation();
  const fieldError = useFieldError();
  const form = useForm<RejectForm>({
    resolver: zodResolver(rejectSchema),
    defaultValues: { reason: '' },
  });
  useEffect(() => {
    if (opened) form.reset({ reason: '' });
    // Reset each time the modal opens only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened]);
  return (
    <AppModal opened={opened} onClose={onClose} title={t('rejectModal.title', { count })}>
      <form noValidate onSubmit={form.handleSubmit((values) => onConfirm(values.reason))}>
        <Stack>
          <Textarea
            label={t('rejectModal.reason')}
            placeholder={t('rejectModal.placeholder')}
            autosize
            minRows={3}
            withAsterisk
            error={fieldError(form.formState.errors.reason)}
            {...form.register('reason')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={pending}>
              {common('cancel')}
            </Button>
            <Button type="submit" color="red" loading={pending}>
              {t('rejectModal.confirm')}
            </Button>
          </Group>
        </Stack>
      </form>
    </AppModal>
  );
}
