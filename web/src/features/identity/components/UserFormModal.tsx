import {
  Button,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  ThemeIcon,
} from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { IconCheck } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../shared/api/use-error-text.js';
import { useCurrentUser } from '../../../shared/auth/current-user.js';
import type { User } from '../../../shared/auth/user.js';
import { AppModal } from '../../../shared/ui/AppModal.js';
import { DigitsInput } from '../../../shared/ui/DigitsInput.js';
import { FormAlert } from '../../../shared/ui/FormAlert.js';
import { useFieldError } from '../../../shared/ui/use-field-error.js';
import {
  clustersQuery,
  createUser,
  organizationsQuery,
  rolesQuery,
  updateUser,
} from '../api/users.js';
import {
  assignableRoles,
  emptyUserForm,
  formFieldsFor,
  toCreateInput,
  toEditInput,
  organizationRequired,
  toFormValues,
  userFormSchemaFor,
  type UserFormValues,
} from '../model/user-form.js';
import { notify } from '../../../shared/ui/notify.js';

/** 'Ajouter un utilisateur' / 'Modifier un utilisateur'; creation ends in a success box. */
/** Mounted per user (keyed), so its form starts from that user's values. */
export function UserFormModal({ user, onClose }: { user: User | 'new'; onClose: () => void }) {
  const { t } = useTranslation('users');
  const fieldError = useFieldError();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const me = useCurrentUser();
  const opened = true;
  const isNew = user === 'new';
  const self = !isNew && user.id === me?.id;
  const [added, setAdded] = useState(false);
  const myRole = me?.role?.code;
  const fields = formFieldsFor(myRole);
  const roles = useQuery({ ...rolesQuery, enabled: opened }).data ?? [];
  const clusters = useQuery({ ...clustersQuery, enabled: fields.cluster }).data?.data ?? [];
  const organizations =
    useQuery({ ...organizationsQuery, enabled: fields.organization }).data?.data ?? [];
  const initial = isNew ? emptyUserForm : toFormValues(user);
  const form = useForm<UserFormValues>({
    resolver: zodResolver(userFormSchemaFor(isNew, roles, myRole, isNew ? undefined : initial)),
    mode: 'onChange',
    defaultValues: initial,
  });
  const roleId = useWatch({ control: form.control, name: 'roleId' });
  const organizationId = useWatch({ control: form.control, name: 'organizationId' });
  // Picking 'Comptable' asks for its organisation at once (not only on submit).
  const needsOrganization =
    fields.organization &&
    organizationRequired(
      { roleId, organizationId: '' },
      roles,
      myRole,
      isNew ? undefined : initial,
    );
  const { trigger } = form;
  useEffect(() => {
    if (form.formState.dirtyFields.roleId) void trigger('organizationId');
  }, [roleId, organizationId, trigger, form.formState.dirtyFields.roleId]);

  const mutation = useMutation({
    mutationFn: (v: UserFormValues) =>
      isNew ? createUser(toCreateInput(v)) : updateUser((user as User).id, toEditInput(v, fields)),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['users'] });
      if (isNew) setAdded(true);
      else {
        notify('success', t('updated'));
        onClose();
      }
    },
  });
  const close = () => {
    mutation.reset();
    onClose();
  };
  const currentRoleId = isNew ? undefined : (user.roleId ?? user.role?.id);
  const roleOptions = assignableRoles(roles, myRole, currentRoleId).map((r) => ({
    value: String(r.id),
    label: r.name,
  }));
  const ownerOnly = !isNew;
  const { errors, isValid } = form.formState;

  if (added) {
    return (
      <AppModal opened={opened} onClose={close} title={t('form.addTitle')}>
        <Stack align="center" ta="center">
          <ThemeIcon color="teal" size={56} radius="xl" aria-hidden>
            <IconCheck size={32} />
          </ThemeIcon>
          <Text fw={600}>{t('added')}</Text>
          <Button onClick={close}>{t('finish')}</Button>
        </Stack>
      </AppModal>
    );
  }

  const select = (
    name: 'roleId' | 'organizationId' | 'clusterId',
    label: string,
    data: { value: string; label: string }[],
    required = false,
    disabled = false,
  ) => (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => (
        <Select
          label={label}
          withAsterisk={required}
          clearable={!required}
          searchable
          placeholder={required ? undefined : t('form.none')}
          data={data}
          disabled={disabled}
          value={field.value || null}
          onChange={(v) => field.onChange(v ?? '')}
          onBlur={field.onBlur}
          error={fieldError(errors[name])}
        />
      )}
    />
  );

  return (
    <AppModal
      opened={opened}
      onClose={close}
      title={isNew ? t('form.addTitle') : t('form.editTitle')}
      size={620}
    >
      <form onSubmit={form.handleSubmit((v) => mutation.mutate(v))} noValidate>
        <Stack>
          <FormAlert
            message={mutation.isError ? errorText(mutation.error, 'userCreation') : null}
          />
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            <TextInput
              label={t('form.lastname')}
              withAsterisk
              error={fieldError(errors.lastname)}
              {...form.register('lastname')}
            />
            <TextInput
              label={t('form.firstname')}
              withAsterisk
              error={fieldError(errors.firstname)}
              {...form.register('firstname')}
            />
            <TextInput
              label={t('form.email')}
              type="email"
              withAsterisk={!ownerOnly}
              readOnly={ownerOnly}
              error={fieldError(errors.email)}
              {...form.register('email')}
            />
            <DigitsInput
              label={t('form.phone')}
              withAsterisk={!ownerOnly}
              readOnly={ownerOnly}
              maxLength={10}
              error={fieldError(errors.phone)}
              {...form.register('phone')}
            />
            {/* Nobody changes its own role, organisation or cluster (the field rules). */}
            {select('roleId', t('form.role'), roleOptions, true, self)}
            {fields.organization &&
              select(
                'organizationId',
                t('form.organization'),
                organizations.map((o) => ({ value: o.id, label: o.denomination })),
                needsOrganization,
                self,
              )}
            {fields.cluster &&
              select(
                'clusterId',
                t('form.cluster'),
                clusters.map((c) => ({ value: c.id, label: c.label })),
                false,
                self,
              )}
            <DigitsInput
              label={t('form.momo')}
              readOnly={ownerOnly}
              maxLength={10}
              {...form.register('momoAccountNumber')}
            />
            <TextInput
              label={t('form.bank')}
              readOnly={ownerOnly}
              {...form.register('bankAccountNumber')}
            />
          </SimpleGrid>
          {ownerOnly && (
            <Text size="sm" c="dark.4" data-testid="owner-only-hint">
              {t('form.ownerOnlyHint')}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('common:cancel')}
            </Button>
            <Button type="submit" disabled={!isValid} loading={mutation.isPending}>
              {isNew ? t('form.submitAdd') : t('form.submitEdit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </AppModal>
  );
}
