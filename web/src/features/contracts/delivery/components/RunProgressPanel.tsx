import { Alert, Button, Group, List, Progress, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconLoader2 } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../../shared/api/use-error-text.js';
import { groupThousands } from '../../../../shared/format/money.js';
import { runQuery, type RunItem } from '../api/delivery-contracts.js';

/**
 * The banner of a run (§4: 'payments are being executed'), with its progress per contract:
 * `GET contracts/runs/{runId}`, refreshed by each `contracts.run` push (the realtime table
 * invalidates the `contracts` queries), until every contract is COMPLETED (or FAILED, with
 * the server's reason); a paid contract says where its money went (advances kept by the
 * aggregator, repaid to the SFD, net paid to the grower).
 */
export function RunProgressPanel({ runId, onDismiss }: { runId: string; onDismiss: () => void }) {
  const { t } = useTranslation('contracts');
  const errorText = useErrorText();
  const progress = useQuery(runQuery(runId));
  const data = progress.data;
  const total = data?.total ?? 0;
  const done = data?.done ?? 0;
  const finished = data?.status === 'DONE';
  const failed = data?.failed ?? 0;
  const line = (item: RunItem) => {
    const reference = t('run.contract', { reference: item.reference ?? item.contractId });
    const status = t(`run.contractStatuses.${item.status}`, { defaultValue: item.status });
    if (item.status === 'FAILED')
      return `${reference} : ${status}${item.error ? ` — ${item.error}` : ''}`;
    if (item.status === 'COMPLETED' && item.breakdown) {
      const b = item.breakdown;
      const amount = (value: number) => groupThousands(String(value));
      return `${reference} : ${status} — ${t('run.breakdown', {
        input: amount(b.inputAdvances),
        pineapple: amount(b.pineappleAdvances),
        sfd: amount(b.socialFinancing),
        net: amount(b.growerNet),
      })}`;
    }
    if (item.status === 'COMPLETED' && item.growerNet !== null) {
      return `${reference} : ${status} — ${t('run.net', { amount: groupThousands(String(item.growerNet)) })}`;
    }
    return `${reference} : ${status}`;
  };
  return (
    <Alert
      // The theme's own green: axe-clean on its light background in every state.
      color="leaf"
      variant="light"
      mb="md"
      data-testid="run-progress"
      data-finished={finished ? 'true' : 'false'}
      icon={
        !finished ? (
          <IconLoader2 size={18} aria-hidden />
        ) : failed ? (
          <IconAlertTriangle size={18} aria-hidden />
        ) : (
          <IconCircleCheck size={18} aria-hidden />
        )
      }
      title={finished ? t('run.finished', { done: data?.completed ?? 0, total }) : t('run.banner')}
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
              {data?.items.map((item) => (
                <List.Item key={item.contractId} data-status={item.status}>
                  {line(item)}
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
