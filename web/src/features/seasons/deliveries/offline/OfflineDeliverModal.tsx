import { Alert, Button, Group, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { newIdempotencyKey } from '../../../../shared/api/idempotency.js';
import { formatNumber } from '../../../../shared/format/money.js';
import { toLocalPhone } from '../../../../shared/format/phone.js';
import { appQueue } from '../../../../shared/offline/app-queue.js';
import { AppModal } from '../../../../shared/ui/AppModal.js';
import { matchCode, normalizeCode, type OfflineRequest } from './code-check.js';
import { deliveryUrl } from './depot.js';

type Step =
  | { name: 'entry'; incorrect: boolean }
  | { name: 'found'; request: OfflineRequest; code: string }
  | { name: 'recorded' };

/**
 * 'Livrer un producteur' without network: the grower's six digits on the numeric keypad,
 * checked on the phone against the kept requests (never the code in clear: docs/seasons.md);
 * the matching request shown; 'Enregistrer la livraison' queues the POST with a fresh
 * idempotency key, sent when the network returns, where the server checks the code again.
 */
export function OfflineDeliverModal({
  opened,
  onClose,
  owner,
  requests,
}: {
  opened: boolean;
  onClose: () => void;
  owner: string;
  requests: OfflineRequest[];
}) {
  const { t } = useTranslation('depot');
  const { t: ti } = useTranslation('seasonInputs');
  const [step, setStep] = useState<Step>({ name: 'entry', incorrect: false });
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);

  const close = () => {
    setStep({ name: 'entry', incorrect: false });
    setCode('');
    onClose();
  };

  const check = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      const found = await matchCode(code, requests);
      setStep(
        found
          ? { name: 'found', request: found, code: normalizeCode(code) }
          : { name: 'entry', incorrect: true },
      );
    } finally {
      setBusy(false);
    }
  };

  const record = async (request: OfflineRequest, typed: string) => {
    setBusy(true);
    try {
      await appQueue().enqueue({
        url: deliveryUrl(request.id),
        body: { code: typed },
        idempotencyKey: newIdempotencyKey(),
        label: t('label', {
          reference: request.reference,
          grower: `${request.grower.firstname} ${request.grower.lastname}`,
          input: request.fertilizer.label,
          quantity: formatNumber(request.quantity),
        }),
        owner,
      });
      setCode('');
      setStep({ name: 'recorded' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <AppModal opened={opened} onClose={close} title={t('modalTitle')}>
      {step.name === 'entry' && (
        <form onSubmit={(e) => void check(e)} noValidate>
          <Stack>
            <TextInput
              label={t('codeLabel')}
              description={t('codeHint')}
              leftSection={<Text size="sm">AGW_</Text>}
              leftSectionWidth={56}
              inputMode="numeric"
              pattern="[0-9]*"
              maxLength={10}
              autoComplete="off"
              size="lg"
              data-autofocus
              value={code}
              onChange={(e) => setCode(e.currentTarget.value)}
              error={step.incorrect ? t('incorrect') : undefined}
            />
            <Button type="submit" size="lg" loading={busy} fullWidth>
              {t('check')}
            </Button>
          </Stack>
        </form>
      )}
      {step.name === 'found' && (
        <Stack>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <Detail label={ti('deliveries.reference')} value={step.request.reference} />
            <Detail
              label={ti('deliveries.grower')}
              value={`${step.request.grower.firstname} ${step.request.grower.lastname}`}
            />
            <Detail
              label={ti('deliveries.phone')}
              value={toLocalPhone(step.request.grower.phone)}
            />
            <Detail label={ti('deliveries.inputName')} value={step.request.fertilizer.label} />
            <Detail label={ti('deliveries.quantity')} value={formatNumber(step.request.quantity)} />
            <Detail
              label={ti('deliveries.aggregator')}
              value={`${step.request.aggregator.firstname} ${step.request.aggregator.lastname}`}
            />
          </SimpleGrid>
          <Button
            size="lg"
            fullWidth
            loading={busy}
            onClick={() => void record(step.request, step.code)}
          >
            {t('record')}
          </Button>
        </Stack>
      )}
      {step.name === 'recorded' && (
        <Stack align="center">
          <IconCircleCheck size={48} color="var(--mantine-color-teal-7)" aria-hidden />
          <Text ta="center" fw={600} role="status">
            {t('recorded')}
          </Text>
          <Group grow w="100%">
            <Button size="lg" onClick={close}>
              {t('close')}
            </Button>
          </Group>
        </Stack>
      )}
    </AppModal>
  );
}

function Detail({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fw={500}>{value || '—'}</Text>
    </div>
  );
}

/** A refusal as the provider reads it: what was refused and the server's reason. */
export function RefusalAlert({
  label,
  message,
  onDismiss,
}: {
  label: string;
  message: string;
  onDismiss: () => void;
}) {
  const { t } = useTranslation('depot');
  return (
    <Alert color="red" icon={<IconAlertTriangle size={18} aria-hidden />} title={label}>
      <Stack gap="xs">
        <Text size="sm">{message}</Text>
        <Group>
          <Button
            size="sm"
            variant="default"
            onClick={onDismiss}
            aria-label={t('dismissLabel', { label })}
          >
            {t('dismiss')}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
