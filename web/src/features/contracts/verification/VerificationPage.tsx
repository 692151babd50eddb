import {
  Alert,
  Anchor,
  Box,
  Button,
  Code,
  Group,
  Loader,
  Paper,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { api } from '../../../shared/api/client.js';
import { useErrorText } from '../../../shared/api/use-error-text.js';
import { formatDate } from '../../../shared/format/date.js';
import { LanguageSwitch } from '../../../app/layout/LanguageSwitch.js';

/** What `GET /api/verifier/{reference}` answers: nothing personal. */
export interface Verification {
  reference: string;
  kind: 'CONTRACT' | 'RECEIPT' | 'STATEMENT';
  kindLabel: string;
  status: string;
  statusLabel: string;
  issuedOn: string;
  documentNumber: string | null;
  period: { from: string; to: string } | null;
  termsVersion: number | null;
  ledger: { position: number; hash: string; recordedAt: string; intact: boolean } | null;
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Box>
      <Text size="sm" c="dimmed" component="dt">
        {label}
      </Text>
      <Box component="dd" m={0} fw={600}>
        {children}
      </Box>
    </Box>
  );
}

/**
 * The public page a document's QR code opens (`/verifier/{reference}`, no sign-in): the
 * document's kind, status today, dates and ledger fingerprint, as the API answers them.
 */
export function VerificationPage({ reference }: { reference: string }) {
  const { t } = useTranslation('verification');
  const errorText = useErrorText();
  const query = useQuery({
    queryKey: ['verification', reference],
    queryFn: () => api<Verification>(`/verifier/${encodeURIComponent(reference)}`),
    retry: false,
  });
  const v = query.data;
  return (
    <Stack component="main" p="md" align="center" bg="gray.0" mih="100vh">
      <Group w="100%" maw={560} justify="space-between">
        <Text fw={800} c="leaf.9">
          {t('common:appName')}
        </Text>
        <LanguageSwitch />
      </Group>
      <Paper w="100%" maw={560} p="lg" radius="lg" withBorder>
        <Stack>
          <Title order={1} size="h3">
            {t('title')}
          </Title>
          <Text size="sm">{t('intro')}</Text>
          {query.isPending && (
            <Group>
              <Loader size="sm" aria-hidden />
              <Text role="status">{t('loading')}</Text>
            </Group>
          )}
          {query.isError && (
            <Alert color="red" role="alert" data-testid="verification-error">
              <Stack gap="xs">
                <Text>{errorText(query.error)}</Text>
                <Group>
                  <Button variant="light" size="xs" onClick={() => void query.refetch()}>
                    {t('retry')}
                  </Button>
                  <Anchor component={Link} to="/" size="sm">
                    {t('home')}
                  </Anchor>
                </Group>
              </Stack>
            </Alert>
          )}
          {v && (
            <Stack component="dl" gap="sm" m={0} data-testid="verification">
              <Row label={t('kind')}>{v.kindLabel}</Row>
              {v.documentNumber && <Row label={t('number')}>{v.documentNumber}</Row>}
              <Row label={t('status')}>
                <span data-testid="verification-status">{v.statusLabel}</span>
              </Row>
              <Row label={t('issuedOn')}>{formatDate(v.issuedOn)}</Row>
              {v.period && (
                <Row label={t('period')}>
                  {t('periodValue', {
                    from: formatDate(v.period.from),
                    to: formatDate(v.period.to),
                  })}
                </Row>
              )}
              {v.termsVersion !== null && <Row label={t('termsVersion')}>{v.termsVersion}</Row>}
              {v.ledger && (
                <>
                  <Row label={t('position')}>{v.ledger.position}</Row>
                  <Row label={t('recordedAt')}>{formatDate(v.ledger.recordedAt)}</Row>
                  <Row label={t('hash')}>
                    <Code
                      block
                      style={{ wordBreak: 'break-all', whiteSpace: 'normal' }}
                      data-testid="verification-hash"
                    >
                      {v.ledger.hash}
                    </Code>
                  </Row>
                </>
              )}
            </Stack>
          )}
          {/* Outside the list: a <dl> holds only its terms and their descriptions. */}
          {v &&
            (v.ledger ? (
              <Alert color={v.ledger.intact ? 'green' : 'red'}>
                {v.ledger.intact ? t('intact') : t('broken')}
              </Alert>
            ) : (
              <Text>{t('noLedger')}</Text>
            ))}
        </Stack>
      </Paper>
    </Stack>
  );
}
