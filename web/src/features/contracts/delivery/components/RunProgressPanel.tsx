import { Alert, Button, Group, List, Progress, Stack, Text } from '@mantine/core';
import { IconCircleCheck, IconLoader2 } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../../shared/api/use-error-text.js';
import { runQuery } from '../api/delivery-contracts.js';
import { RUN_FINAL } from '../model/statuses.js';

/**
 * The banner of a run (§4: 'payments are being executed'), with its progress per contract:
 * `GET contracts/runs/{runId}`, refreshed by each `contracts.run` push (the realtime table
 * invalidates the `contracts` queries), until every contract is COMPLETED.
 */
export function RunProgressPanel({ runId, onDismiss }: { runId: string; onDismiss: () => void }) {
  const { t } = useTranslation('contracts');
  const errorText = useErrorText();
  const progress = useQuery(runQuery(runId));
  const data = progress.data;
  const total = data?.total ?? data?.contracts.length ?? 0;
  const done = data?.done ?? data?.contracts.filter((c) => RUN_FINAL.has(c.status)).length ?? 0;
  const finished = total > 0 && done >= total;
  return (
    <Alert
      color={finished ? 'teal' : 'blue'}
      variant="light"
      mb="md"
      data-testid="run-progress"
      data-finished={finished ? 'true' : 'false'}
      icon={
        finished ? <IconCircleCheck size={18} aria-hidden /> : <IconLoader2 size={18} aria-hidden />
      }
      title={finished ? t('run.finished', { done, total }) : t('run.banner')}
    >
      <Stack gap="xs">
        {progress.isError ? (
          <Text c="red.8" role="alert" size="sm">
            {errorText(progress.error)}
          </Text>
        ) : (
          <>
            <Text size="sm" role="status" aria-live="polite">
              {t('run.progress', { done, total })}
            </Text>
            <Progress
              value={total ? (done / total) * 100 : 0}
              aria-label={t('run.progressLabel')}
              animated={!finished}
            />
            <List size="sm" spacing={2} data-testid="run-contracts">
              {data?.contracts.map((c) => (
                <List.Item key={c.contractId} data-status={c.status}>
                  {t('run.contract', { reference: c.reference ?? c.contractId })} :{' '}
                  {t(`run.contractStatuses.${c.status}`, { defaultValue: c.status })}
                </List.Item>
              ))}
            </List>
          </>
        )}
        <Group justify="flex-end">
          <Button size="compact-sm" variant="subtle" onClick={onDismiss}>
            {t('run.dismiss')}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
