import { Alert, List, Paper, Stack, Text, Title } from '@mantine/core';
import { IconCloudUpload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../../shared/format/date.js';
import { appQueue } from '../../../../shared/offline/app-queue.js';
import { RefusalAlert } from './OfflineDeliverModal.js';
import type { Depot } from './depot.js';

/**
 * The depot's panel on 'Demandes d'intrants' (input provider): how many requests the phone
 * keeps for working offline, 'En attente d'envoi (N)' with what waits for the network, and
 * what the server refused with its reason, kept until the provider dismisses it.
 */
export function DepotPanel({ depot }: { depot: Depot }) {
  const { t } = useTranslation('depot');
  const { pending, refused } = depot.queue;
  return (
    <Paper withBorder p="md" radius="md" data-testid="depot-panel">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('title')}
        </Title>
        <Text size="sm" data-testid="depot-ready">
          {depot.issuedAt
            ? t('ready', { count: depot.requests.length, date: formatDate(depot.issuedAt) })
            : depot.loadFailed
              ? t('loadFailed')
              : t('none')}
        </Text>
        {pending.length > 0 && (
          <Alert
            color="blue"
            icon={<IconCloudUpload size={18} aria-hidden />}
            title={t('pending', { count: pending.length })}
            data-testid="depot-pending"
          >
            <Stack gap={4}>
              <Text size="sm">{t('pendingHint')}</Text>
              <List size="sm">
                {pending.map((post) => (
                  <List.Item key={post.id}>{post.label}</List.Item>
                ))}
              </List>
            </Stack>
          </Alert>
        )}
        {refused.length > 0 && (
          <Stack gap="xs" data-testid="depot-refused">
            <Title order={3} size="h5">
              {t('refused', { count: refused.length })}
            </Title>
            {refused.map((post) => (
              <RefusalAlert
                key={post.id}
                label={post.label}
                message={post.message}
                onDismiss={() => void appQueue().dismiss(post.id)}
              />
            ))}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
