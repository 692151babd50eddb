import {
  Alert,
  Button,
  Card,
  Divider,
  Group,
  List,
  Loader,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue, useNetwork } from '@mantine/hooks';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { newIdempotencyKey } from '../../../shared/api/idempotency.js';
import { useCurrentUser } from '../../../shared/auth/current-user.js';
import { appQueue, useOfflineSync } from '../../../shared/offline/app-queue.js';
import { useErrorText } from '../../../shared/api/use-error-text.js';
import { formatMoney } from '../../../shared/format/money.js';
import { formatDecimal } from '../../../shared/format/number.js';
import { formatDate } from '../../../shared/format/date.js';
import { PageTitle } from '../../../shared/ui/PageTitle.js';
import { today } from '../delivery/model/contract-form.js';
import {
  collectionKeys,
  confirmWeighing,
  findGrowers,
  previewWeighing,
  type CollectionContract,
  type CollectionGrower,
  type QualityGrade,
  type Weighing,
  type WeighingAnswer,
} from './api.js';
import { CardScanButton } from './CardScanner.js';
import {
  findOffline,
  settleOffline,
  useCollectionDay,
  weighingOf,
  WEIGHINGS_URL,
  type CollectionDay,
} from './offline-day.js';
import { Receipt } from './Receipt.js';
import './collection.css';

/** Whole kilograms as typed on the scale's keypad, or null. */
export function parseKilograms(text: string): number | null {
  const digits = text.replace(/[\s\u00a0\u202f]/g, '');
  if (!/^\d{1,9}$/.test(digits)) return null;
  const kg = Number(digits);
  return kg > 0 ? kg : null;
}

/** A label and an amount on one line: nothing is pushed off a 390 px screen. */
function Line({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="xs">
      <Text size={strong ? 'lg' : 'md'} fw={strong ? 700 : 400}>
        {label}
      </Text>
      <Text size={strong ? 'lg' : 'md'} fw={strong ? 700 : 500} style={{ whiteSpace: 'nowrap' }}>
        {value}
      </Text>
    </Group>
  );
}

/** The figures of a weighing: its worth, each debt recovered, the net paid to the grower. */
export function WeighingFigures({ answer }: { answer: WeighingAnswer }) {
  const { t } = useTranslation('collection');
  return (
    <Stack gap={6} aria-live="polite">
      <Line label={t('figures.value')} value={formatMoney(answer.deliveredAmount)} />
      {answer.recoveries.map((r) => (
        <Line
          key={r.debtId}
          label={t(`debtKinds.${r.kind}`, { defaultValue: r.kind })}
          value={`− ${formatMoney(r.amount)}`}
        />
      ))}
      {answer.recoveries.length === 0 && <Text c="dimmed">{t('figures.noDebt')}</Text>}
      <Divider />
      <Line label={t('figures.net')} value={formatMoney(answer.growerNet)} strong />
    </Stack>
  );
}

function GrowerSearch({
  onPick,
  online,
  day,
}: {
  onPick: (g: CollectionGrower, c: CollectionContract) => void;
  online: boolean;
  day: CollectionDay;
}) {
  const { t } = useTranslation('collection');
  const errorText = useErrorText();
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  const found = useQuery({
    // Offline the grower is found in the day kept on the phone, without the contracts this
    // phone has queued or seen refused: those are part of the answer's key.
    queryKey: online
      ? collectionKeys.growers(q)
      : [...collectionKeys.growers(q), 'offline', day.day?.issuedAt, [...day.taken].sort()],
    queryFn: () => (online ? findGrowers(q) : findOffline(day.day, q, day.taken)),
    enabled: q.length > 0,
    networkMode: 'always',
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setQ(text.trim());
  };
  const scanned = useCallback((code: string) => {
    setText(code);
    setQ(code);
  }, []);
  return (
    <Stack>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput
            label={t('search.label')}
            description={t('search.hint')}
            inputMode="numeric"
            autoComplete="off"
            size="lg"
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
          />
          <Button type="submit" size="lg" fullWidth disabled={!text.trim()}>
            {t('search.submit')}
          </Button>
          <CardScanButton onCode={scanned} />
        </Stack>
      </form>
      {found.isFetching && <Loader aria-label={t('search.loading')} />}
      {found.isError && <Alert color="red">{errorText(found.error)}</Alert>}
      {found.data && found.data.length === 0 && <Text>{t('search.none')}</Text>}
      {found.data?.map((g) => (
        <Card key={g.id} withBorder padding="md">
          <Stack gap="xs">
            <Text fw={700} size="lg">
              {g.firstname} {g.lastname}
            </Text>
            <Text c="dimmed">
              {g.reference}
              {g.phone ? ` · ${g.phone}` : ''}
            </Text>
            {!g.hasMobileMoney && (
              <Alert color="yellow" p="xs">
                {t('search.noMobileMoney')}
              </Alert>
            )}
            {g.contracts.length === 0 && <Text>{t('search.noContract')}</Text>}
            {g.contracts.map((c) => (
              <Button
                key={c.id}
                size="lg"
                variant="light"
                fullWidth
                justify="space-between"
                onClick={() => onPick(g, c)}
                aria-label={t('search.pick', {
                  reference: c.reference,
                  quantity: formatDecimal(c.quantity),
                })}
              >
                {c.reference} · {formatDecimal(c.quantity)} t
              </Button>
            ))}
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}

function WeighingForm({
  grower,
  contract,
  onDone,
  onQueued,
  onBack,
  online,
  day,
}: {
  grower: CollectionGrower;
  contract: CollectionContract;
  onDone: (answer: WeighingAnswer) => void;
  onQueued: (answer: WeighingAnswer) => void;
  onBack: () => void;
  online: boolean;
  day: CollectionDay;
}) {
  const me = useCurrentUser();
  const { t } = useTranslation('collection');
  const errorText = useErrorText();
  const [kgText, setKgText] = useState('');
  const [grade, setGrade] = useState<QualityGrade>('A');
  const [weighedOn] = useState(today);
  const kilograms = parseKilograms(kgText);
  const weighing: Weighing | null = useMemo(
    () => (kilograms ? { contractId: contract.id, kilograms, grade, weighedOn } : null),
    [contract.id, kilograms, grade, weighedOn],
  );
  // One key per weighing entered: a retry of the same weighing sends the same key.
  const key = useMemo(() => (weighing ? newIdempotencyKey() : null), [weighing]);
  const [debounced] = useDebouncedValue(weighing, 250);
  // From the tap on confirm the figures shown are the ones being paid: the payment's own push
  // (contracts.updated), often there before its answer on a slow network, must not preview the
  // contract again, settled by then (a request the receipt never needs, on the scale's one
  // narrow link). A refused payment lets the preview live again.
  const [paying, setPaying] = useState(false);
  const preview = useQuery({
    queryKey: debounced ? collectionKeys.preview(debounced) : ['contracts', 'collection', 'none'],
    queryFn: () => previewWeighing(debounced!),
    enabled: online && debounced !== null && !paying,
    retry: false,
  });
  // Offline: the server's rule on the kept day, after what is already queued.
  const local = useMemo(
    () => (!online && weighing && day.day ? settleOffline(day.day, day.queued, weighing) : null),
    [online, weighing, day.day, day.queued],
  );
  const confirm = useMutation({
    networkMode: 'always',
    mutationFn: async (): Promise<WeighingAnswer> => {
      if (online) return confirmWeighing(weighing!, key!);
      await appQueue().enqueue({
        url: WEIGHINGS_URL,
        body: weighing,
        idempotencyKey: key!,
        label: t('offline.label', {
          grower: `${grower.firstname} ${grower.lastname}`,
          reference: contract.reference,
          kilograms: formatDecimal(weighing!.kilograms),
          net: formatMoney(local!.growerNet),
        }),
        owner: me!.id,
      });
      return local!;
    },
    onMutate: () => setPaying(true),
    onError: () => setPaying(false),
    onSuccess: online ? onDone : onQueued,
  });
  const shown = online
    ? weighing && preview.data && debounced === weighing
      ? preview.data
      : null
    : local;
  return (
    <Stack>
      <Card withBorder padding="md">
        <Text fw={700} size="lg">
          {grower.firstname} {grower.lastname}
        </Text>
        <Text c="dimmed">
          {contract.reference} ·{' '}
          {t('weigh.contracted', {
            quantity: formatDecimal(contract.quantity),
            amount: formatMoney(contract.amount),
          })}
        </Text>
      </Card>
      <TextInput
        label={t('weigh.kilograms')}
        inputMode="numeric"
        autoComplete="off"
        size="lg"
        data-autofocus
        value={kgText}
        onChange={(e) => setKgText(e.currentTarget.value)}
        error={kgText && !kilograms ? t('weigh.kilogramsInvalid') : undefined}
      />
      <div>
        <Text component="span" id="collection-grade" fw={500} size="sm">
          {t('weigh.grade')}
        </Text>
        {/* xl: each grade a thumb's target of 44 px and more (lg is 42). */}
        <SegmentedControl
          aria-labelledby="collection-grade"
          fullWidth
          size="xl"
          value={grade}
          onChange={(v) => setGrade(v as QualityGrade)}
          data={(['A', 'B', 'C'] as const).map((g) => ({ value: g, label: t(`grades.${g}`) }))}
        />
      </div>
      {preview.isFetching && !shown && <Loader aria-label={t('weigh.computing')} />}
      {preview.isError && <Alert color="red">{errorText(preview.error)}</Alert>}
      {!online && weighing && !local && <Alert color="red">{t('offline.notKept')}</Alert>}
      {!online && shown && <Text c="dimmed">{t('offline.estimate')}</Text>}
      {shown && <WeighingFigures answer={shown} />}
      {confirm.isError && <Alert color="red">{errorText(confirm.error)}</Alert>}
      <Button
        size="xl"
        fullWidth
        disabled={!shown || confirm.isPending}
        loading={confirm.isPending}
        onClick={() => confirm.mutate()}
      >
        {!online
          ? t('offline.confirm')
          : shown
            ? t('weigh.confirmNet', { net: formatMoney(shown.growerNet) })
            : t('weigh.confirm')}
      </Button>
      <Button size="lg" variant="subtle" fullWidth onClick={onBack} disabled={confirm.isPending}>
        {t('weigh.back')}
      </Button>
    </Stack>
  );
}

/**
 * What the scale's phone holds: the day kept for offline work, the weighings waiting for the
 * network ('En attente d'envoi'), those sent since the page opened, and those the server
 * refused with its reason, kept until dismissed.
 */
function CollectionQueuePanel({ online, day }: { online: boolean; day: CollectionDay }) {
  const { t } = useTranslation('collection');
  const [sent, setSent] = useState<{ id: string; label: string }[]>([]);
  useEffect(
    () =>
      appQueue().onSent((post) => {
        if (weighingOf(post)) setSent((list) => [...list, { id: post.id, label: post.label }]);
      }),
    [],
  );
  const pending = day.queue.pending.filter((p) => weighingOf(p));
  const refused = day.queue.refused.filter((p) => weighingOf(p));
  return (
    <Card withBorder padding="sm" data-testid="collection-queue">
      <Stack gap="xs">
        <Text size="sm" data-testid="collection-ready">
          {day.day
            ? t('offline.ready', {
                count: day.day.growers.length,
                date: formatDate(day.day.issuedAt),
              })
            : day.loadFailed
              ? t('offline.loadFailed')
              : t('offline.none')}
        </Text>
        {!online && (
          <Alert color="yellow" p="xs">
            {t('offline.working')}
          </Alert>
        )}
        {pending.length > 0 && (
          <Alert color="blue" p="xs" title={t('offline.pending', { count: pending.length })}>
            <List size="sm">
              {pending.map((p) => (
                <List.Item key={p.id}>{p.label}</List.Item>
              ))}
            </List>
          </Alert>
        )}
        {sent.length > 0 && (
          <Alert color="teal" p="xs">
            {/* The body's text colour: the teal title falls short of 4.5:1 on its background. */}
            <Text fw={700} size="sm">
              {t('offline.sent', { count: sent.length })}
            </Text>
            <List size="sm">
              {sent.map((p) => (
                <List.Item key={p.id}>{p.label}</List.Item>
              ))}
            </List>
          </Alert>
        )}
        {refused.map((p) => (
          <Alert
            key={p.id}
            color="red"
            p="xs"
            title={t('offline.refused')}
            withCloseButton
            closeButtonLabel={t('offline.dismiss')}
            onClose={() => void appQueue().dismiss(p.id)}
          >
            <Text size="sm">{p.label}</Text>
            <Text size="sm" fw={500}>
              {p.message}
            </Text>
          </Alert>
        ))}
      </Stack>
    </Card>
  );
}

/**
 * 'Centre de collecte': the aggregator at the scale finds the grower (code, phone, QR card),
 * picks his contract ready for delivery, enters the weighed kilograms and the grade, sees the
 * value, each debt recovered and the net live (the server's preview of the very command), and
 * confirms: delivered and paid in one step, the payout queued, a 58 mm receipt to print.
 */
export function CollectionCentrePage() {
  const { t } = useTranslation('collection');
  const { online } = useNetwork();
  const me = useCurrentUser();
  const day = useCollectionDay(me?.id, online);
  useOfflineSync(me?.id);
  const [queued, setQueued] = useState<WeighingAnswer | null>(null);
  const [picked, setPicked] = useState<{
    grower: CollectionGrower;
    contract: CollectionContract;
  } | null>(null);
  const [done, setDone] = useState<WeighingAnswer | null>(null);
  const restart = () => {
    setPicked(null);
    setDone(null);
    setQueued(null);
  };
  return (
    <Stack maw={520}>
      <PageTitle>{t('title')}</PageTitle>
      <CollectionQueuePanel online={online} day={day} />
      {queued && picked ? (
        <Stack>
          <Alert color="blue" role="status" title={t('offline.queuedTitle')}>
            <Text>{t('offline.queued', { net: formatMoney(queued.growerNet) })}</Text>
          </Alert>
          <WeighingFigures answer={queued} />
          <Button size="lg" fullWidth onClick={restart}>
            {t('done.next')}
          </Button>
        </Stack>
      ) : done && picked ? (
        <Stack>
          <Alert color="teal" role="status">
            <Text fw={700}>{t('done.title')}</Text>
            <Text>{done.payoutQueued ? t('done.payoutQueued') : t('done.inWallet')}</Text>
          </Alert>
          <Receipt answer={done} grower={picked.grower} />
          <Button size="lg" fullWidth onClick={() => window.print()}>
            {t('done.print')}
          </Button>
          <Button size="lg" variant="light" fullWidth onClick={restart}>
            {t('done.next')}
          </Button>
        </Stack>
      ) : picked ? (
        <WeighingForm
          key={picked.contract.id}
          grower={picked.grower}
          contract={picked.contract}
          onDone={setDone}
          onQueued={setQueued}
          onBack={() => setPicked(null)}
          online={online}
          day={day}
        />
      ) : (
        <GrowerSearch
          onPick={(grower, contract) => setPicked({ grower, contract })}
          online={online}
          day={day}
        />
      )}
    </Stack>
  );
}
