import { Button, Group, SimpleGrid, Stack, Text, TextInput, ThemeIcon } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { zodResolver } from '@hookform/resolvers/zod';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import i18n from 'i18next';
import { isApiError } from '../../../../shared/api/api-error.js';
import { useErrorText } from '../../../../shared/api/use-error-text.js';
import { useIdempotencyKey } from '../../../../shared/api/use-idempotency-key.js';
import { formatNumber } from '../../../../shared/format/money.js';
import { toLocalPhone } from '../../../../shared/format/phone.js';
import { AppModal } from '../../../../shared/ui/AppModal.js';
import { deliveryKeys, findByCode, makeDelivery, type DeliveryRow } from '../api/deliveries.js';

type Step =
  | { name: 'entry' }
  | { name: 'correct'; request: DeliveryRow; code: string }
  | { name: 'incorrect' }
  | { name: 'success' };

const codeSchema = z.object({ code: z.string() });

/** A failure shown as the spec's warning toast with the server's text (§8). */
function warn(message: string): void {
  notifications.show({
    color: 'orange',
    message,
    closeButtonProps: { 'aria-label': i18n.t('common:close') },
  });
}

/**
 * 'Livrer un producteur' (spec §2.11, §4): the grower's code (like AGW_345895), then
 * 'code-correct' (reference, grower and phone, input type and name, kg, aggregator, confirm)
 * or 'code-incorrect' (empty or unknown: 'Le code du producteur que vous avez saisi est
 * incorrect', 'Réessayer'); confirming shows 'Producteur livré avec succès !' and the list
 * reloads. The confirmation sends the code found (the grower's proof of delivery); one
 * repeated after a lost answer sends the same Idempotency-Key.
 */
export function DeliverByCodeModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation('seasonInputs');
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const [step, setStep] = useState<Step>({ name: 'entry' });
  const key = useIdempotencyKey();
  const form = useForm<z.infer<typeof codeSchema>>({
    resolver: zodResolver(codeSchema),
    defaultValues: { code: '' },
  });

  const close = () => {
    setStep({ name: 'entry' });
    form.reset({ code: '' });
    onClose();
  };

  const find = useMutation({
    mutationFn: (code: string) => findByCode(code),
    onSuccess: (answer, code) => {
      key.renew();
      setStep({ name: 'correct', request: answer.request, code });
    },
    onError: (error) => {
      if (isApiError(error, 404)) setStep({ name: 'incorrect' });
      else warn(errorText(error));
    },
  });
  const deliver = useMutation({
    mutationFn: ({ requestId, code }: { requestId: number; code: string }) =>
      makeDelivery(requestId, code, key.current()),
    onSuccess: async () => {
      key.renew();
      setStep({ name: 'success' });
      await queryClient.invalidateQueries({ queryKey: deliveryKeys.all });
    },
    onError: (error) => warn(errorText(error)),
  });

  const submit = form.handleSubmit(({ code }) => {
    const trimmed = code.trim();
    // An empty code is the incorrect-code modal (§5).
    if (!trimmed) setStep({ name: 'incorrect' });
    else find.mutate(trimmed);
  });

  const title =
    step.name === 'correct'
      ? t('deliveries.correctTitle')
      : step.name === 'incorrect'
        ? t('deliveries.incorrectTitle')
        : t('deliveries.codeTitle');

  return (
    <AppModal
      opened={opened}
      onClose={close}
      title={title}
      size={step.name === 'correct' ? 700 : 500}
    >
      {step.name === 'entry' && (
        <form onSubmit={submit} noValidate>
          <Stack>
            <TextInput
              label={t('deliveries.codeLabel')}
              placeholder={t('deliveries.codePlaceholder')}
              autoComplete="off"
              data-autofocus
              {...form.register('code')}
            />
            <Group justify="flex-end">
              <Button type="submit" loading={find.isPending}>
                {t('deliveries.search')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
      {step.name === 'correct' && (
        <Stack>
          <SimpleGrid cols={2} spacing="sm">
            <Detail label={t('deliveries.reference')} value={step.request.reference} />
            <Detail
              label={t('deliveries.grower')}
              value={`${step.request.grower.firstname} ${step.request.grower.lastname}`}
            />
            <Detail label={t('deliveries.phone')} value={toLocalPhone(step.request.grower.phone)} />
            <Detail label={t('deliveries.inputType')} value={step.request.fertilizer.type.label} />
            <Detail label={t('deliveries.inputName')} value={step.request.fertilizer.label} />
            <Detail label={t('deliveries.quantity')} value={formatNumber(step.request.quantity)} />
            <Detail
              label={t('deliveries.aggregator')}
              value={`${step.request.aggregator.firstname} ${step.request.aggregator.lastname}`}
            />
          </SimpleGrid>
          <Group justify="flex-end">
            <Button
              loading={deliver.isPending}
              onClick={() => deliver.mutate({ requestId: step.request.id, code: step.code })}
            >
              {t('deliveries.confirm')}
            </Button>
          </Group>
        </Stack>
      )}
      {step.name === 'incorrect' && (
        <Stack align="center">
          <ThemeIcon color="red" variant="light" size={56} radius="xl">
            <IconAlertTriangle size={32} aria-hidden />
          </ThemeIcon>
          <Text ta="center">{t('deliveries.incorrect')}</Text>
          <Button onClick={() => setStep({ name: 'entry' })}>{t('deliveries.retry')}</Button>
        </Stack>
      )}
      {step.name === 'success' && (
        <Stack align="center">
          <ThemeIcon color="teal" variant="light" size={56} radius="xl">
            <IconCircleCheck size={32} aria-hidden />
          </ThemeIcon>
          <Text ta="center" fw={600} role="status">
            {t('deliveries.success')}
          </Text>
          <Button onClick={close}>{t('deliveries.close')}</Button>
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
