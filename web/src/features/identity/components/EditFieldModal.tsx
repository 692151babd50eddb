import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { useErrorText } from '../../../shared/api/use-error-text.js';
import { currentUserQuery } from '../../../shared/auth/current-user.js';
import { toE164 } from '../../../shared/format/phone.js';
import { AppModal } from '../../../shared/ui/AppModal.js';
import { DigitsInput } from '../../../shared/ui/DigitsInput.js';
import { PasswordField } from '../../../shared/ui/PasswordField.js';
import { useFieldError } from '../../../shared/ui/use-field-error.js';
import { emailText, msg, phoneText, requiredText } from '../../../shared/validation/rules.js';
import { CONFIRMED_FIELDS, updateMyField, type ProfileField } from '../api/profile.js';
import { notify } from '../../../shared/ui/notify.js';

const valueRule = (field: ProfileField) => {
  switch (field) {
    case 'email':
      return emailText();
    case 'phone':
      return phoneText();
    case 'momoAccountNumber':
    case 'bankAccountNumber':
      return z.string().trim().max(40, msg.invalid);
    default:
      return requiredText();
  }
};

/** What the API receives: phones in E.164, an emptied payout account as null. */
const toValue = (field: ProfileField, value: string): string | null => {
  if (field === 'phone') return toE164(value);
  if ((field === 'momoAccountNumber' || field === 'bankAccountNumber') && !value.trim()) {
    return null;
  }
  return value;
};

/**
 * One profile field in a modal; on success the modal closes and the profile reloads. The
 * e-mail, the phone and the payout accounts ask for the current password (the server refuses
 * them without it, and tells the address on file).
 */
export function EditFieldModal({
  field,
  label,
  initial,
  onClose,
}: {
  field: ProfileField;
  label: string;
  initial: string;
  onClose: () => void;
}) {
  const { t } = useTranslation('profile');
  const fieldError = useFieldError();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const confirm = CONFIRMED_FIELDS.has(field);
  const schema = z.object({
    value: valueRule(field),
    currentPassword: confirm ? z.string().min(1, msg.required) : z.string(),
  });
  const form = useForm<{ value: string; currentPassword: string }>({
    resolver: zodResolver(schema),
    mode: 'onChange',
    defaultValues: { value: initial, currentPassword: '' },
  });
  const mutation = useMutation({
    mutationFn: (v: { value: string; currentPassword: string }) =>
      updateMyField(field, toValue(field, v.value), confirm ? v.currentPassword : undefined),
    onSuccess: async () => {
      notify('success', t('updated'));
      await queryClient.invalidateQueries({ queryKey: currentUserQuery.queryKey });
      onClose();
    },
    onError: (error) => notify('error', errorText(error)),
  });
  const digits = field === 'phone' || field === 'momoAccountNumber';
  const Input = digits ? DigitsInput : TextInput;
  return (
    <AppModal opened onClose={onClose} title={t('editField', { field: label })}>
      <form onSubmit={form.handleSubmit((v) => mutation.mutate(v))} noValidate>
        <Stack>
          <Input
            label={label}
            type={field === 'email' ? 'email' : 'text'}
            withAsterisk={field !== 'momoAccountNumber' && field !== 'bankAccountNumber'}
            maxLength={digits ? 10 : undefined}
            data-autofocus
            error={fieldError(form.formState.errors.value)}
            {...form.register('value')}
          />
          {confirm && (
            <>
              <Text size="sm" c="dark.4">
                {t('confirmWithPassword')}
              </Text>
              <PasswordField
                label={t('currentPassword')}
                autoComplete="current-password"
                withAsterisk
                error={fieldError(form.formState.errors.currentPassword)}
                {...form.register('currentPassword')}
              />
            </>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common:cancel')}
            </Button>
            <Button type="submit" disabled={!form.formState.isValid} loading={mutation.isPending}>
              {t('common:save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </AppModal>
  );
}
