import { Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../../shared/api/use-error-text.js';
import { formatDate } from '../../../../shared/format/date.js';
import { formatNumber } from '../../../../shared/format/money.js';
import { integrityQuery } from '../api/audit.js';

/**
 * 'Intégrité du registre': the last position of the event log whose hash chain was verified,
 * when, and OK or BROKEN (with the first broken position). The `audit.integrity` push turns
 * it BROKEN live.
 */
export function IntegrityPanel() {
  const { t } = useTranslation('audit');
  const errorText = useErrorText();
  const integrity = useQuery(integrityQuery);
  const d = integrity.data;
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-label={t('integrity.title')}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4">
            {t('integrity.title')}
          </Title>
          {d && (
            <Badge
              size="lg"
              color={d.status === 'OK' ? '#1e6b30' : 'red.9'}
              data-testid="integrity-status"
            >
              {t(`integrity.status.${d.status}`)}
            </Badge>
          )}
        </Group>
        {integrity.isLoading && <Text>{t('loading')}</Text>}
        {integrity.isError && (
          <Text c="red.8" role="alert">
            {errorText(integrity.error)}
          </Text>
        )}
        {d && (
          <Stack gap={4}>
            <Text>
              {t('integrity.lastVerifiedPosition')} :{' '}
              <strong>{formatNumber(d.lastVerifiedPosition)}</strong>{' '}
              {t('integrity.ofHead', { head: formatNumber(d.headPosition) })}
            </Text>
            <Text>
              {t('integrity.verifiedAt')} :{' '}
              {d.verifiedAt ? formatDate(d.verifiedAt) : t('integrity.neverVerified')}
            </Text>
            {d.status === 'BROKEN' && (
              <Text c="red.8" role="alert">
                {t('integrity.brokenAt', { position: formatNumber(d.brokenAt ?? 0) })}
              </Text>
            )}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
