import { Alert, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../../shared/api/use-error-text.js';
import { useCurrentUser } from '../../../../shared/auth/current-user.js';
import { ROLES } from '../../../../shared/auth/roles.js';
import { toLocalPhone } from '../../../../shared/format/phone.js';
import { StatusBadge } from '../../../../shared/ui/StatusBadge.js';
import { cooperativeQuery } from '../api/cooperatives.js';
import { CooperativePayout, Field } from './CooperativePayout.js';
import { FormFrame, Section } from './CooperativeFormPage.js';
import { DeactivateCooperativeModal } from './DeactivateCooperativeModal.js';

/** organisations-paysannes/show/{id}: the cooperative, its representative, its payout accounts. */
export function CooperativeDetailPage({ id }: { id: string }) {
  const { t } = useTranslation('cooperatives');
  const errorText = useErrorText();
  const navigate = useNavigate();
  const query = useQuery(cooperativeQuery(id));
  const canWrite = useCurrentUser()?.role?.code !== ROLES.INDUSTRIAL;
  const [deactivating, setDeactivating] = useState(false);
  const c = query.data;
  if (!c) {
    return (
      <FormFrame title={t('detail.title')}>
        {query.isError ? (
          <Alert color="red" role="alert">
            {errorText(query.error)}
          </Alert>
        ) : (
          <Text c="dimmed">{t('common:loading')}</Text>
        )}
      </FormFrame>
    );
  }
  const none = t('detail.none');
  return (
    <FormFrame title={c.label}>
      <Group justify="space-between">
        <Group gap="xs">
          <Text c="dark.4">{c.reference}</Text>
          <StatusBadge
            kind={c.isActive ? 'success' : 'danger'}
            label={t(c.isActive ? 'statuses.active' : 'statuses.inactive')}
          />
        </Group>
        {c.isActive && canWrite && (
          <Group gap="xs">
            <Button
              variant="default"
              renderRoot={(props) => (
                <Link {...props} to="/organisations-paysannes/edit/$id" params={{ id: c.id }} />
              )}
              leftSection={<IconPencil size={16} aria-hidden />}
            >
              {t('editButton')}
            </Button>
            <Button
              variant="default"
              color="red"
              leftSection={<IconTrash size={16} aria-hidden />}
              onClick={() => setDeactivating(true)}
            >
              {t('deactivate')}
            </Button>
          </Group>
        )}
      </Group>
      <Section title={t('form.organization')}>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <Field label={t('form.label')} value={c.label} />
          <Field label={t('form.ifu')} value={c.user.ifu} />
          <Field label={t('form.rccm')} value={c.user.rccm ?? none} />
        </SimpleGrid>
      </Section>
      <Section title={t('form.representative')}>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <Field label={t('form.lastname')} value={c.user.lastname} />
          <Field label={t('form.firstname')} value={c.user.firstname} />
          <Field label={t('form.phone')} value={toLocalPhone(c.user.phone) || none} />
          <Field label={t('form.email')} value={c.user.email ?? none} />
          <Field label={t('form.nip')} value={c.user.nip ?? none} />
        </SimpleGrid>
      </Section>
      <Paper withBorder p="lg" radius="md" component="section" aria-label={t('form.payout')}>
        <Title order={2} size="h4" mb="md">
          {t('form.payout')}
        </Title>
        <Stack>
          <CooperativePayout cooperative={c} />
        </Stack>
      </Paper>
      <DeactivateCooperativeModal
        cooperative={deactivating ? c : null}
        onClose={() => setDeactivating(false)}
        onDone={() => navigate({ to: '/organisations-paysannes' })}
      />
    </FormFrame>
  );
}
