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
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { useErrorText } from '../../../shared/api/use-error-text.js';
import { useCurrentUser } from '../../../shared/auth/current-user.js';
import { ROLES } from '../../../shared/auth/roles.js';
import type { User } from '../../../shared/auth/user.js';
import { toE164, toLocalPhone } from '../../../shared/format/phone.js';
import { AppModal } from '../../../shared/ui/AppModal.js';
import { DigitsInput } from '../../../shared/ui/DigitsInput.js';
import { FormAlert } from '../../../shared/ui/FormAlert.js';
import { useFieldError } from '../../../shared/ui/use-field-error.js';
import { emailText, msg, phoneText, requiredText } from '../../../shared/validation/rules.js';
import {
  clustersQuery,
  createUser,
  organizationsQuery,
  rolesQuery,
  updateUser,
  type UserInput,
} from '../api/users.js';
import { notify } from '../../../shared/ui/notify.js';

const schema = z.object({
  lastname: requiredText(),
  firstname: requiredText(),
  email: emailText(),
  phone: phoneText(),
  roleId: z.string().min(1, msg.required),
  organizationId: z.string(),
  clusterId: z.string(),
  momoAccountNumber: z.string().trim(),
  bankAccountNumber: z.string().trim(),
});
type Values = z.infer<typeof schema>;
/** Editing: the owner's fields are read-only and not sent, so not checked either. */
const editSchema = schema.extend({ email: z.string(), phone: z.string() });

const empty: Values = {
  lastname: '',
  firstname: '',
  email: '',
  phone: '',
  roleId: '',
  organizationId: '',
  clusterId: '',
  momoAccountNumber: '',
  bankAccountNumber: '',
};

function toValues(user: User): Values {
  return {
    lastname: user.lastname,
    firstname: user.firstname,
    email: user.email,
    phone: toLocalPhone(user.phone),
    roleId: user.roleId ?? user.role?.id ?? '',
    organizationId: user.organizationId ?? '',
    clusterId: user.clusterId ?? '',
    momoAccountNumber: user.momoAccountNumber ?? '',
    bankAccountNumber: user.bankAccountNumber ?? '',
  };
}

function toInput(v: Values): UserInput {
  const opt = (s: string) => (s ? s : undefined);
  return {
    lastname: v.lastname,
    firstname: v.firstname,
    email: v.email,
    phone: toE164(v.phone),
    roleId: v.roleId,
    organizationId: opt(v.organizationId),
    clusterId: opt(v.clusterId),
    momoAccountNumber: opt(v.momoAccountNumber),
    bankAccountNumber: opt(v.bankAccountNumber),
  };
}

/**
 * On someone else's account, the e-mail, phone and payout accounts are their owner's alone
 * (the server's field rules): the edit form shows them read-only and never sends them.
 */
function toEditInput(v: Values): Partial<UserInput> {
  const {
    email: _email,
    phone: _phone,
    momoAccountNumber: _momo,
    bankAccountNumber: _bank,
    ...rest
  } = toInput(v);
  return rest;
}

/** Staff rank, as the server's field rules: a role is assigned only below one's own. */
const RANK: Record<string, number> = {
  [ROLES.SUPER_ADMIN]: 3,
  [ROLES.ADMIN]: 2,
  [ROLES.CLUSTER_MANAGER]: 1,
};
const rankOf = (code: string | undefined) => RANK[code ?? ''] ?? 0;

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
  const [added, setAdded] = useState(false);
  const roles = useQuery({ ...rolesQuery, enabled: opened }).data ?? [];
  const clusters = useQuery({ ...clustersQuery, enabled: opened }).data?.data ?? [];
  const organizations = useQuery({ ...organizationsQuery, enabled: opened }).data?.data ?? [];
  const form = useForm<Values>({
    resolver: zodResolver(isNew ? schema : editSchema),
    mode: 'onChange',
    defaultValues: isNew ? empty : toValues(user),
  });

  const mutation = useMutation({
    mutationFn: (v: Values) =>
      isNew ? createUser(toInput(v)) : updateUser((user as User).id, toEditInput(v)),
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
  const myRole = me?.role?.code;
  const currentRoleId = isNew ? undefined : (user.roleId ?? user.role?.id);
  const roleOptions = roles
    .filter(
      (r) =>
        myRole === ROLES.SUPER_ADMIN ||
        rankOf(r.code) < rankOf(myRole) ||
        String(r.id) === String(currentRoleId),
    )
    .map((r) => ({ value: r.id, label: r.name }));
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
            {select('roleId', t('form.role'), roleOptions, true)}
            {select(
              'organizationId',
              t('form.organization'),
              organizations.map((o) => ({ value: o.id, label: o.denomination ?? o.name ?? o.id })),
            )}
            {select(
              'clusterId',
              t('form.cluster'),
              clusters.map((c) => ({ value: c.id, label: c.name ?? c.denomination ?? c.id })),
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
