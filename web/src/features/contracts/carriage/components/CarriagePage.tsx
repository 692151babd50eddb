import { zodResolver } from '@hookform/resolvers/zod';
import dayjs from 'dayjs';
import { Alert, Button, Group, Select, Stack, Text, Textarea } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { ApiError } from '../../../../shared/api/api-error.js';
import { useErrorText } from '../../../../shared/api/use-error-text.js';
import { useIdempotencyKey } from '../../../../shared/api/use-idempotency-key.js';
import { useCurrentUser } from '../../../../shared/auth/current-user.js';
import { ROLES } from '../../../../shared/auth/roles.js';
import { formatDate } from '../../../../shared/format/date.js';
import { formatNumber } from '../../../../shared/format/money.js';
import { AppModal } from '../../../../shared/ui/AppModal.js';
import type { Column } from '../../../../shared/ui/DataTable.js';
import { DateField } from '../../../../shared/ui/DateField.js';
import { FormAlert } from '../../../../shared/ui/FormAlert.js';
import { ListPage } from '../../../../shared/ui/ListPage.js';
import { MoneyInput } from '../../../../shared/ui/MoneyInput.js';
import { notify } from '../../../../shared/ui/notify.js';
import { StatusBadge } from '../../../../shared/ui/StatusBadge.js';
import {
  cancelCarriageContract,
  carriageKeys,
  carriageListQuery,
  carrierChoicesQuery,
  createCarriageContract,
  payCarriageContract,
  type CarriageRow,
} from '../api/carriage.js';
import { parseDay } from '../../delivery/model/contract-form.js';
import {
  CARRIAGE_BADGE,
  CARRIAGE_STATUSES,
  type CarriageSearch,
  type CarriageStatus,
} from '../model/search.js';

/**
 * 'Contrats de transport': the aggregator's carriage contracts (the carrier its own, admins
 * all) — reference, carrier, vehicle, transport date, amount, status; search, status filter,
 * pages of 10; the aggregator creates one (its amount held on its wallet), pays a transported
 * one to the carrier's wallet or cancels one still to come (both after a confirmation).
 */
export function CarriagePage({
  search,
  onSearchChange,
}: {
  search: CarriageSearch;
  onSearchChange: (next: Partial<CarriageSearch>) => void;
}) {
  const { t } = useTranslation('contracts');
  const errorText = useErrorText();
  const me = useCurrentUser();
  const queryClient = useQueryClient();
  const isAggregator = me?.role?.code === ROLES.INDUSTRIAL;
  const list = useQuery(carriageListQuery(search));
  const [creating, setCreating] = useState(false);
  const [action, setAction] = useState<{ kind: 'pay' | 'cancel'; row: CarriageRow } | null>(null);
  const act = useMutation({
    mutationFn: (a: { kind: 'pay' | 'cancel'; row: CarriageRow }) =>
      a.kind === 'pay' ? payCarriageContract(a.row.id) : cancelCarriageContract(a.row.id),
    onSuccess: async (_answer, a) => {
      notify('success', t(`carriage.${a.kind}.done`, { reference: a.row.reference }));
      setAction(null);
      await queryClient.invalidateQueries({ queryKey: carriageKeys.all });
    },
    onError: (error) => notify('error', errorText(error)),
  });
  const columns: Column<CarriageRow>[] = [
    { name: 'reference', title: t('carriage.columns.reference') },
    {
      name: 'carrier',
      title: t('carriage.columns.carrier'),
      transform: (r) => `${r.carrier.lastname} ${r.carrier.firstname}`,
    },
    {
      name: 'vehicle',
      title: t('carriage.columns.vehicle'),
      transform: (r) => `${r.vehicle.carType} · ${r.vehicle.registration}`,
    },
    {
      name: 'transportDate',
      title: t('carriage.columns.transportDate'),
      transform: (r) => formatDate(r.transportDate),
    },
    {
      name: 'amount',
      title: t('carriage.columns.amount'),
      transform: (r) => formatNumber(r.amount),
    },
    {
      name: 'status',
      title: t('carriage.columns.status'),
      transform: (r) => (
        <StatusBadge kind={CARRIAGE_BADGE[r.status]} label={t(`carriage.statuses.${r.status}`)} />
      ),
    },
    {
      name: 'action',
      title: t('carriage.columns.action'),
      transform: (r) =>
        isAggregator && r.status === 'CREATED' ? (
          <Group gap="xs" wrap="nowrap">
            <Button size="xs" onClick={() => setAction({ kind: 'pay', row: r })}>
              {t('carriage.pay.button')}
            </Button>
            <Button
              size="xs"
              variant="outline"
              color="red"
              onClick={() => setAction({ kind: 'cancel', row: r })}
            >
              {t('carriage.cancel.button')}
            </Button>
          </Group>
        ) : null,
    },
  ];
  return (
    <ListPage<CarriageRow, CarriageStatus>
      title={t('carriage.title')}
      search={search}
      onSearchChange={onSearchChange}
      searchPlaceholder={t('carriage.search')}
      statuses={{ values: CARRIAGE_STATUSES, label: (s) => t(`carriage.statuses.${s}`) }}
      columns={columns}
      list={list}
      actions={
        isAggregator ? (
          <Button onClick={() => setCreating(true)}>{t('carriage.create.button')}</Button>
        ) : undefined
      }
    >
      {list.isError && (
        <Text c="red.8" role="alert" mt="sm">
          {errorText(list.error)}
        </Text>
      )}
      <AppModal
        opened={action !== null}
        onClose={() => setAction(null)}
        title={action ? t(`carriage.${action.kind}.title`) : ''}
      >
        {action && (
          <Stack>
            <Alert color="orange" title={t('carriage.irreversible')}>
              {t(`carriage.${action.kind}.confirm`, {
                reference: action.row.reference,
                amount: formatNumber(action.row.amount),
                carrier: `${action.row.carrier.lastname} ${action.row.carrier.firstname}`,
              })}
            </Alert>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setAction(null)}>
                {t('carriage.back')}
              </Button>
              <Button loading={act.isPending} onClick={() => act.mutate(action)}>
                {t(`carriage.${action.kind}.yes`)}
              </Button>
            </Group>
          </Stack>
        )}
      </AppModal>
      <AppModal
        opened={creating}
        onClose={() => setCreating(false)}
        title={t('carriage.create.title')}
      >
        {creating && <CreateCarriageForm onDone={() => setCreating(false)} />}
      </AppModal>
    </ListPage>
  );
}

function CreateCarriageForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation('contracts');
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const required = t('carriage.create.required');
  const schema = z.object({
    carrierId: z.string({ message: required }).min(1, required),
    vehicleId: z.string({ message: required }).min(1, required),
    transportDate: z.date({ message: required }),
    amount: z.number({ message: required }).int().positive(t('carriage.create.amountPositive')),
    description: z.string().max(1000).optional(),
  });
  type Values = z.infer<typeof schema>;
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { carrierId: '', vehicleId: '', description: '' },
  });
  const key = useIdempotencyKey(form);
  const [q, setQ] = useState('');
  const [debounced] = useDebouncedValue(q, 300);
  const carriers = useQuery(carrierChoicesQuery(debounced));
  const carrierId = useWatch({ control: form.control, name: 'carrierId' });
  // The picked carrier is kept: once picked, the search box shows its label, and the search
  // for that label no longer returns it (its vehicles must stay offered).
  type CarrierChoice = NonNullable<typeof carriers.data>['data'][number];
  const [picked, setPicked] = useState<CarrierChoice | undefined>(undefined);
  const chosen =
    carriers.data?.data.find((c) => c.id === carrierId) ??
    (picked?.id === carrierId ? picked : undefined);
  const carrierLabel = (c: CarrierChoice) =>
    `${c.user.lastname} ${c.user.firstname}${c.user.phone ? ` · ${c.user.phone}` : ''}`;
  const carrierOptions = (carriers.data?.data ?? []).map((c) => ({
    value: c.id,
    label: carrierLabel(c),
  }));
  if (chosen && !carrierOptions.some((o) => o.value === chosen.id)) {
    carrierOptions.unshift({ value: chosen.id, label: carrierLabel(chosen) });
  }
  const [refused, setRefused] = useState<{ message: string; short: boolean } | null>(null);
  const create = useMutation({
    mutationFn: (values: Values) =>
      createCarriageContract(
        {
          carrierId: values.carrierId,
          vehicleId: values.vehicleId,
          transportDate: isoDay(values.transportDate),
          amount: values.amount,
          description: values.description?.trim() || undefined,
        },
        key.current(),
      ),
    onSuccess: async (answer) => {
      key.renew();
      notify('success', t('carriage.create.done', { reference: answer.reference }));
      await queryClient.invalidateQueries({ queryKey: carriageKeys.all });
      onDone();
    },
    onError: (error) =>
      setRefused({
        message: errorText(error),
        short: error instanceof ApiError && error.status === 422,
      }),
  });
  return (
    <form onSubmit={form.handleSubmit((values) => create.mutate(values))} noValidate>
      <Stack>
        {refused && !refused.short && <FormAlert message={refused.message} />}
        {refused?.short && (
          <Alert color="red" title={t('carriage.create.shortTitle')}>
            <Stack gap="xs">
              <Text size="sm">{refused.message}</Text>
              <Button component={Link} to="/wallet" size="xs" variant="light">
                {t('carriage.create.fund')}
              </Button>
            </Stack>
          </Alert>
        )}
        <Controller
          control={form.control}
          name="carrierId"
          render={({ field, fieldState }) => (
            <Select
              label={t('carriage.create.carrier')}
              placeholder={t('carriage.create.carrierPlaceholder')}
              searchable
              required
              searchValue={q}
              onSearchChange={setQ}
              nothingFoundMessage={t('carriage.create.noCarrier')}
              data={carrierOptions}
              value={field.value || null}
              onChange={(value) => {
                setPicked(carriers.data?.data.find((c) => c.id === value));
                field.onChange(value ?? '');
                form.setValue('vehicleId', '');
              }}
              error={fieldState.error?.message}
            />
          )}
        />
        <Controller
          control={form.control}
          name="vehicleId"
          render={({ field, fieldState }) => (
            <Select
              label={t('carriage.create.vehicle')}
              required
              disabled={!chosen}
              data={(chosen?.cars ?? []).map((car) => ({
                value: car.id,
                label: `${car.carType} · ${car.registration} · ${formatNumber(car.capacity)} Kg`,
              }))}
              value={field.value || null}
              onChange={(value) => field.onChange(value ?? '')}
              error={fieldState.error?.message}
            />
          )}
        />
        <Controller
          control={form.control}
          name="transportDate"
          render={({ field, fieldState }) => (
            <DateField
              label={t('carriage.create.transportDate')}
              required
              // Typed day first (DD/MM/YYYY), as the other date fields.
              dateParser={parseDay}
              value={field.value ?? null}
              onChange={(value) => field.onChange(value ? dayjs(value).toDate() : undefined)}
              error={fieldState.error?.message}
            />
          )}
        />
        <Controller
          control={form.control}
          name="amount"
          render={({ field, fieldState }) => (
            <MoneyInput
              label={t('carriage.create.amount')}
              required
              value={field.value ?? null}
              onChange={(value) => field.onChange(value ?? undefined)}
              error={fieldState.error?.message}
            />
          )}
        />
        <Textarea label={t('carriage.create.description')} {...form.register('description')} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t('carriage.back')}
          </Button>
          <Button type="submit" loading={create.isPending}>
            {t('carriage.create.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

const isoDay = (d: Date) => {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
};
