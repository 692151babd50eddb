import {
  Alert,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../../shared/api/use-error-text.js';
import { useIdempotencyKey } from '../../../../shared/api/use-idempotency-key.js';
import { useCurrentUser } from '../../../../shared/auth/current-user.js';
import { AppModal } from '../../../../shared/ui/AppModal.js';
import { notify } from '../../../../shared/ui/notify.js';
import { useFieldError } from '../../../../shared/ui/use-field-error.js';
import {
  acceptSeason,
  formatAmount,
  formatDay,
  seasonAmountsQuery,
  seasonKeys,
  seasonLinkQuery,
  seasonQuery,
  type AcceptedSeasonLink,
  type SeasonAmounts,
} from '../../model/index.js';
import { kgToTonnes, quantityForm, tonnesToKg, type QuantityValues } from '../model/quantity.js';

/**
 * The acceptance flow of spec §2.3, from the season detail or the bell: the acceptance modal
 * (season name, dates, desired quantity in tonnes with 'Modifier' — the three cards then come
 * from `GET seasons/{id}/amounts` —, the expiry notice, 'Accepter la saison'), then the
 * success modal with, when the wallet does not cover the minimum supply, the balance, the
 * shortfall and 'Approvisionner maintenant' (→ /approvisionnements?showModal=1) or 'Plus
 * tard'; otherwise 'Terminer'. A refusal (an expired invitation's 422…) is an error toast
 * with the server's message.
 */
export function SeasonAcceptance({
  seasonId,
  onClose,
}: {
  /** The season to accept; null: closed. */
  seasonId: number | null;
  onClose: () => void;
}) {
  const [accepted, setAccepted] = useState<AcceptedSeasonLink | null>(null);
  const close = () => {
    setAccepted(null);
    onClose();
  };
  return (
    <>
      {seasonId !== null && !accepted && (
        <AcceptModal seasonId={seasonId} onClose={close} onAccepted={setAccepted} />
      )}
      {accepted && <SuccessModal accepted={accepted} onClose={close} />}
    </>
  );
}

/** `29/11/2026` and `14:05` of an instant (the server's message says 'le JJ/MM/AAAA à HH:MM'). */
const dayAndTime = (instant: string) => ({
  date: formatDay(instant),
  time: dayjs(instant).format('HH:mm'),
});

function AcceptModal({
  seasonId,
  onClose,
  onAccepted,
}: {
  seasonId: number;
  onClose: () => void;
  onAccepted: (answer: AcceptedSeasonLink) => void;
}) {
  const { t } = useTranslation('seasonInvitations');
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const me = useCurrentUser();
  const season = useQuery(seasonQuery(seasonId));
  const link = useQuery(seasonLinkQuery(seasonId, me?.id ?? ''));
  /** The quantity (kg) chosen with 'Modifier'; null keeps the invitation's. */
  const [quantityKg, setQuantityKg] = useState<number | null>(null);
  const [editing, setEditing] = useState(false);
  /** When the modal opened: an invitation past its expiry then says it expired. */
  const [openedAt] = useState(() => Date.now());
  const key = useIdempotencyKey();
  const changed = quantityKg !== null && quantityKg !== link.data?.quantity;
  const preview = useQuery({
    ...seasonAmountsQuery(seasonId, quantityKg ?? 0),
    enabled: changed,
    placeholderData: keepPreviousData,
  });

  // Another quantity is another action: a new idempotency key.
  useEffect(() => key.renew(), [quantityKg, key]);

  const accept = useMutation({
    mutationFn: () => acceptSeason(seasonId, changed ? quantityKg! : undefined, key.current()),
    onSuccess: async (answer) => {
      key.renew();
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: seasonKeys.all }),
        queryClient.invalidateQueries({ queryKey: ['wallet'] }),
      ]);
      onAccepted(answer);
    },
    onError: (error) => notify('error', errorText(error)),
  });

  const amounts: SeasonAmounts | undefined = changed ? preview.data : link.data;
  const failed = season.error ?? link.error;
  const expiry = link.data ? dayAndTime(link.data.expiresAt) : null;
  const expired =
    link.data && (link.data.status === 'CANCELED' || Date.parse(link.data.expiresAt) <= openedAt);

  return (
    <AppModal opened onClose={onClose} title={t('accept.title')} size={700}>
      {failed ? (
        <Alert color="red" role="alert">
          {errorText(failed)}
        </Alert>
      ) : !season.data || !link.data ? (
        <Stack aria-busy="true" aria-label={t('accept.loading')}>
          <Skeleton h={24} />
          <Skeleton h={80} />
        </Stack>
      ) : (
        <Stack gap="md">
          <div>
            <Text size="sm" c="dark.4">
              {t('accept.season')}
            </Text>
            <Text fw={700} size="lg" data-testid="accept-season-label">
              {season.data.label}
            </Text>
            <Text size="sm">
              {t('accept.dates', {
                from: formatDay(season.data.from),
                to: formatDay(season.data.to),
              })}
            </Text>
          </div>
          {editing ? (
            <QuantityEditor
              initialKg={quantityKg ?? link.data.quantity}
              onCancel={() => setEditing(false)}
              onApply={(kg) => {
                setQuantityKg(kg);
                setEditing(false);
              }}
            />
          ) : (
            <Group gap="xs" align="baseline">
              <Text size="sm" c="dark.4">
                {t('accept.quantity')}
              </Text>
              <Text fw={700} data-testid="accept-quantity">
                {t('accept.tonnes', { value: kgToTonnes(quantityKg ?? link.data.quantity) })}
              </Text>
              <Button
                variant="subtle"
                size="compact-sm"
                onClick={() => setEditing(true)}
                disabled={accept.isPending}
              >
                {t('accept.modify')}
              </Button>
            </Group>
          )}
          {changed && preview.isError ? (
            <Alert color="red" role="alert">
              {errorText(preview.error)}
            </Alert>
          ) : (
            <AmountCards amounts={amounts} loading={changed && preview.isFetching} />
          )}
          {expiry && (
            <Alert
              color={expired ? 'red' : 'orange'}
              icon={<IconAlertTriangle size={18} aria-hidden />}
              data-testid="accept-expiry"
            >
              {t(expired ? 'accept.expired' : 'accept.expiry', expiry)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('accept.cancel')}
            </Button>
            <Button
              onClick={() => accept.mutate()}
              loading={accept.isPending}
              disabled={editing || (changed && (!preview.data || preview.isError))}
            >
              {t('accept.submit')}
            </Button>
          </Group>
        </Stack>
      )}
    </AppModal>
  );
}

/** 'Modifier': the desired quantity in tonnes (required, numeric, spec §5). */
function QuantityEditor({
  initialKg,
  onApply,
  onCancel,
}: {
  initialKg: number;
  onApply: (kg: number) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('seasonInvitations');
  const fieldError = useFieldError();
  const form = useForm<QuantityValues>({
    resolver: zodResolver(quantityForm),
    mode: 'onChange',
    defaultValues: { tonnes: kgToTonnes(initialKg).replace(/\u202f/g, '') },
  });
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.stopPropagation();
        void form.handleSubmit((values) => onApply(tonnesToKg(values.tonnes)!))(event);
      }}
    >
      <Group align="flex-start" gap="sm">
        <TextInput
          label={t('accept.quantityLabel')}
          inputMode="decimal"
          autoComplete="off"
          required
          data-autofocus
          style={{ flex: 1 }}
          {...form.register('tonnes')}
          error={fieldError(form.formState.errors.tonnes)}
        />
        <Group gap="xs" mt={25}>
          <Button type="submit" disabled={!form.formState.isValid}>
            {t('accept.apply')}
          </Button>
          <Button variant="default" onClick={onCancel}>
            {t('accept.cancel')}
          </Button>
        </Group>
      </Group>
    </form>
  );
}

/** The three cards: total to pay, fertilizer amount, minimum supply amount. */
export function AmountCards({
  amounts,
  loading = false,
}: {
  amounts: SeasonAmounts | undefined;
  loading?: boolean;
}) {
  const { t } = useTranslation('seasonInvitations');
  const cards = ['productionAmount', 'fertilizerAmount', 'minSupplyAmount'] as const;
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }} aria-busy={loading}>
      {cards.map((card) => (
        <Paper key={card} withBorder p="md" radius="md" data-testid={`card-${card}`}>
          <Text size="sm" c="dark.4" id={`card-${card}-label`}>
            {t(`cards.${card}`)}
          </Text>
          {amounts && !loading ? (
            <Text fw={700} size="lg" aria-labelledby={`card-${card}-label`}>
              {formatAmount(amounts[card])}
            </Text>
          ) : (
            <Skeleton h={28} mt={4} />
          )}
        </Paper>
      ))}
    </SimpleGrid>
  );
}

/** 'Félicitations !': the shortfall and 'Approvisionner maintenant', or 'Terminer'. */
function SuccessModal({
  accepted,
  onClose,
}: {
  accepted: AcceptedSeasonLink;
  onClose: () => void;
}) {
  const { t } = useTranslation('seasonInvitations');
  const navigate = useNavigate();
  const { funding } = accepted;
  return (
    <AppModal opened onClose={onClose} title={t('success.title')}>
      <Stack gap="md" align="stretch">
        <Group justify="center">
          <IconCircleCheck size={56} color="var(--mantine-color-teal-7)" aria-hidden />
        </Group>
        {funding.funded ? (
          <Group justify="flex-end">
            <Button onClick={onClose}>{t('success.done')}</Button>
          </Group>
        ) : (
          <>
            <Text size="sm">{t('success.shortfallIntro')}</Text>
            <Paper withBorder p="md" radius="md">
              <Group justify="space-between">
                <Text size="sm" c="dark.4">
                  {t('success.balance')}
                </Text>
                <Text fw={600} data-testid="success-balance">
                  {formatAmount(funding.availableBalance)}
                </Text>
              </Group>
              <Group justify="space-between" mt="xs">
                <Text size="sm" c="dark.4">
                  {t('success.shortfall')}
                </Text>
                <Text fw={700} c="red.8" data-testid="success-shortfall">
                  {formatAmount(funding.shortfall)}
                </Text>
              </Group>
            </Paper>
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                {t('success.later')}
              </Button>
              <Button
                onClick={() => {
                  onClose();
                  void navigate({ to: '/approvisionnements', search: { showModal: 1 } });
                }}
              >
                {t('success.supplyNow')}
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </AppModal>
  );
}
