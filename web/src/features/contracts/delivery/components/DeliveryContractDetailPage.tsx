import {
  Anchor,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconArrowLeft, IconCheck, IconMessage, IconScale, IconX } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import dayjs from 'dayjs';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../../shared/api/client.js';
import { useErrorText } from '../../../../shared/api/use-error-text.js';
import { useCurrentUser } from '../../../../shared/auth/current-user.js';
import { ROLES } from '../../../../shared/auth/roles.js';
import type { User } from '../../../../shared/auth/user.js';
import { formatDate } from '../../../../shared/format/date.js';
import { groupThousands } from '../../../../shared/format/money.js';
import { AppModal } from '../../../../shared/ui/AppModal.js';
import { FormAlert } from '../../../../shared/ui/FormAlert.js';
import { notify } from '../../../../shared/ui/notify.js';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { StatusBadge } from '../../../../shared/ui/StatusBadge.js';
import { growerQuery } from '../../../actors/growers/api/growers.js';
import {
  cancelDeliveryContract,
  confirmDeliveryContract,
  contractKeys,
  resendAcceptanceCode,
  deliveryContractQuery,
  type DeliveryContractDetail,
} from '../api/delivery-contracts.js';
import { STATUS_KIND, contractActions } from '../model/statuses.js';
import { ContractPdfButton, GrowerStatementButton, ReceiptPdfButton } from '../../pdf/index.js';
import { RecordDeliveryModal } from './RecordDeliveryModal.js';
import { formatDecimal } from '../../../../shared/format/number.js';

const money = (amount: number | null | undefined) =>
  amount === null || amount === undefined ? '—' : `${groupThousands(String(amount))} FCFA`;
const day = (value: string | null | undefined) => (value ? dayjs(value).format('DD/MM/YYYY') : '—');

/** The contracts list's roles (§6). */
const CONTRACT_LIST_READERS: readonly string[] = [ROLES.SUPER_ADMIN, ROLES.ADMIN, ROLES.INDUSTRIAL];

/** Readers of growers (GET grower/{id}): the grower itself has no such right. */
const GROWER_READERS: readonly string[] = [
  ROLES.SUPER_ADMIN,
  ROLES.ADMIN,
  ROLES.INDUSTRIAL,
  ROLES.FARMER_ORGANIZATION,
];

/**
 * ShowContratLivraison (§2.5): parties, plot, quantities, price, dates, status, the delivery
 * and, once run, the debts recovered and the grower's net. Actions by role and status: the
 * grower or its cooperative 'Confirmer' (PENDING); the aggregator 'Enregistrer la livraison'
 * (CONFIRMED) and 'Annuler' (until delivered, confirmed first: the hold is released).
 */
export function DeliveryContractDetailPage({ id }: { id: string }) {
  const { t } = useTranslation('contracts');
  const errorText = useErrorText();
  const me = useCurrentUser();
  const contract = useQuery(deliveryContractQuery(id));
  // The grower and its cooperative have no contracts list: back is where they came from.
  const listReader = CONTRACT_LIST_READERS.includes(me?.role?.code ?? '');

  return (
    <>
      {listReader ? (
        <Anchor component={Link} to="/contrats/livraison" mb="sm" c="dark.6" display="inline-block">
          <Group gap={4}>
            <IconArrowLeft size={16} aria-hidden />
            {t('detail.back')}
          </Group>
        </Anchor>
      ) : (
        <Anchor
          component="button"
          type="button"
          onClick={() => window.history.back()}
          mb="sm"
          c="dark.6"
          display="inline-block"
        >
          <Group gap={4}>
            <IconArrowLeft size={16} aria-hidden />
            {t('common:back')}
          </Group>
        </Anchor>
      )}
      {contract.isError ? (
        <>
          <PageTitle>{t('detail.notFound')}</PageTitle>
          <FormAlert message={errorText(contract.error)} />
        </>
      ) : !contract.data || !me ? (
        <Text c="dimmed">{t('common:loading')}</Text>
      ) : (
        <ContractDetail contract={contract.data} me={me} />
      )}
    </>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="sm" c="dimmed" component="dt">
        {label}
      </Text>
      <Text fw={500} component="dd" m={0}>
        {children}
      </Text>
    </div>
  );
}

/** A titled card of fields (a definition list), or its `empty` text when it has none yet. */
function Section({
  title,
  empty,
  children,
}: {
  title: string;
  empty?: string | null;
  children?: ReactNode;
}) {
  return (
    <Paper withBorder p="lg" radius="md">
      <Title order={2} size="h4" mb="md">
        {title}
      </Title>
      {empty ? (
        <Text c="dimmed">{empty}</Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} component="dl" m={0}>
          {children}
        </SimpleGrid>
      )}
    </Paper>
  );
}

function ContractDetail({ contract: c, me }: { contract: DeliveryContractDetail; me: User }) {
  const { t } = useTranslation('contracts');
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const role = me.role?.code;
  const can = contractActions(role, c.status);
  const mine = me.id === c.aggregatorUserId;
  const grower = useQuery({
    ...growerQuery(c.growerId),
    enabled: GROWER_READERS.includes(role ?? ''),
    retry: false,
  });
  const aggregator = useQuery({
    queryKey: ['users', 'detail', c.aggregatorUserId],
    queryFn: () => api<User>(`/users/${encodeURIComponent(c.aggregatorUserId)}`),
    // Staff read users; the grower and its cooperative do not (the name stays '—').
    enabled: !mine && (role === ROLES.SUPER_ADMIN || role === ROLES.ADMIN),
    retry: false,
  });
  const plot = grower.data?.products?.find((p) => p.id === c.plotId);
  const [dialog, setDialog] = useState<'confirm' | 'deliver' | 'cancel' | null>(null);
  // The grower's own session is his consent; his cooperative proves it with the grower's code.
  const needsCode = role === ROLES.FARMER_ORGANIZATION;
  const [code, setCode] = useState('');

  const refresh = () => queryClient.invalidateQueries({ queryKey: contractKeys.all });
  const confirm = useMutation({
    mutationFn: () => confirmDeliveryContract(c.id, needsCode ? code : undefined),
    onSuccess: async () => {
      setDialog(null);
      notify('success', t('actions.confirmDone'));
      await refresh();
    },
  });
  const resend = useMutation({
    mutationFn: () => resendAcceptanceCode(c.id),
    onSuccess: async (answer) => {
      setCode('');
      confirm.reset();
      notify('success', t('actions.resendDone', { phone: answer.phone }));
      await refresh();
    },
    onError: (error) => notify('error', errorText(error)),
  });
  const canResend =
    c.status === 'PENDING' &&
    (role === ROLES.FARMER_ORGANIZATION ||
      role === ROLES.SUPER_ADMIN ||
      role === ROLES.ADMIN ||
      (role === ROLES.INDUSTRIAL && mine));
  const cancel = useMutation({
    mutationFn: () => cancelDeliveryContract(c.id),
    onSuccess: async () => {
      setDialog(null);
      notify('success', t('actions.cancelDone'));
      await Promise.all([refresh(), queryClient.invalidateQueries({ queryKey: ['wallet'] })]);
    },
  });

  const tonnes = (value: string | null) =>
    value === null ? t('detail.none') : t('detail.tonnes', { value: formatDecimal(value) });
  const unitPrice = Number(c.quantity) > 0 ? Math.floor(c.amount / Number(c.quantity)) : null;
  const aggregatorName = mine
    ? `${me.firstname} ${me.lastname} (${t('detail.you')})`
    : aggregator.data
      ? `${aggregator.data.firstname} ${aggregator.data.lastname}`
      : t('detail.none');
  const growerName = grower.data
    ? `${grower.data.user.firstname} ${grower.data.user.lastname}`
    : role === ROLES.GROWER
      ? `${me.firstname} ${me.lastname}`
      : t('detail.none');
  const settled = c.status === 'COMPLETED';

  return (
    <Stack>
      <Group justify="space-between" align="flex-start">
        <Group gap="sm" align="center">
          <PageTitle>{t('detail.title', { reference: c.reference })}</PageTitle>
          <div style={{ marginBottom: 'var(--mantine-spacing-lg)' }} data-testid="contract-status">
            <StatusBadge
              kind={STATUS_KIND[c.status] ?? 'success'}
              label={t(`statuses.${c.status}`, { defaultValue: c.status })}
            />
          </div>
        </Group>
        <Group gap="sm">
          <ContractPdfButton contractId={c.id} />
          {c.status === 'COMPLETED' && <ReceiptPdfButton contractId={c.id} />}
          {/* The grower's statement (relevé): everyone who reads the contract reaches its grower. */}
          <GrowerStatementButton growerId={c.growerId} />
          {can.confirm && (
            <Button
              leftSection={<IconCheck size={16} aria-hidden />}
              onClick={() => {
                confirm.reset();
                setCode('');
                setDialog('confirm');
              }}
            >
              {t('actions.confirm')}
            </Button>
          )}
          {canResend && (
            <Button
              variant="default"
              leftSection={<IconMessage size={16} aria-hidden />}
              loading={resend.isPending}
              onClick={() => resend.mutate()}
            >
              {t('actions.resendCode')}
            </Button>
          )}
          {can.deliver && mine && (
            <Button
              leftSection={<IconScale size={16} aria-hidden />}
              onClick={() => setDialog('deliver')}
            >
              {t('actions.deliver')}
            </Button>
          )}
          {can.cancel && mine && (
            <Button
              variant="default"
              color="red"
              leftSection={<IconX size={16} aria-hidden />}
              onClick={() => {
                cancel.reset();
                setDialog('cancel');
              }}
            >
              {t('actions.cancel')}
            </Button>
          )}
        </Group>
      </Group>

      <Section title={t('detail.parties')}>
        <Field label={t('detail.aggregator')}>{aggregatorName}</Field>
        <Field label={t('detail.grower')}>{growerName}</Field>
        <Field label={t('detail.plot')}>
          {plot ? plot.location : t('detail.plotUnknown', { id: c.plotId.slice(0, 8) })}
        </Field>
        <Field label={t('detail.productType')}>
          {c.productType ? t(`types.${c.productType}`, { defaultValue: c.productType }) : '—'}
        </Field>
      </Section>

      <Section title={t('detail.terms')}>
        <Field label={t('detail.quantity')}>{tonnes(c.quantity)}</Field>
        <Field label={t('detail.amount')}>{money(c.amount)}</Field>
        <Field label={t('detail.unitPrice')}>{money(unitPrice)}</Field>
        <Field label={t('detail.deliveryDate')}>{day(c.deliveryDate)}</Field>
        <Field label={t('detail.createdAt')}>{formatDate(c.createdAt)}</Field>
        <Field label={t('detail.status')}>
          {t(`statuses.${c.status}`, { defaultValue: c.status })}
        </Field>
      </Section>

      <Section
        title={t('detail.acceptance')}
        empty={
          c.acceptance
            ? null
            : c.acceptanceCode
              ? t('detail.codeSent', {
                  phone: c.acceptanceCode.phone,
                  date: formatDate(c.acceptanceCode.issuedAt),
                })
              : t('detail.notAccepted')
        }
      >
        {c.acceptance && (
          <>
            <Field label={t('detail.acceptanceMethod')}>
              <span data-testid="acceptance-method">
                {t(`detail.methods.${c.acceptance.method}`)}
              </span>
            </Field>
            <Field label={t('detail.acceptedBy')}>
              {`${c.acceptance.acceptedBy.firstname} ${c.acceptance.acceptedBy.lastname}`}
            </Field>
            <Field label={t('detail.acceptedAt')}>{formatDate(c.acceptance.acceptedAt)}</Field>
            <Field label={t('detail.acceptedPhone')}>{c.acceptance.phone ?? '—'}</Field>
          </>
        )}
      </Section>

      <Section
        title={t('detail.delivery')}
        empty={c.deliveredQuantity === null ? t('detail.notDelivered') : null}
      >
        <Field label={t('detail.deliveredQuantity')}>{tonnes(c.deliveredQuantity)}</Field>
        <Field label={t('detail.deliveredOn')}>{day(c.deliveredOn)}</Field>
        <Field label={t('detail.deliveredAmount')}>{money(c.deliveredAmount)}</Field>
      </Section>

      <Section title={t('detail.settlement')} empty={settled ? null : t('detail.notSettled')}>
        <Field label={t('detail.deliveredAmount')}>{money(c.deliveredAmount)}</Field>
        <Field label={t('detail.recovered')}>{money(c.recoveredAmount ?? 0)}</Field>
        {c.breakdown && (
          <>
            <Field label={t('detail.inputAdvances')}>
              <span data-testid="kept-input-advances">{money(c.breakdown.inputAdvances)}</span>
            </Field>
            <Field label={t('detail.pineappleAdvances')}>
              <span data-testid="kept-pineapple-advances">
                {money(c.breakdown.pineappleAdvances)}
              </span>
            </Field>
            <Field label={t('detail.socialFinancing')}>
              <span data-testid="repaid-sfd">{money(c.breakdown.socialFinancing)}</span>
            </Field>
          </>
        )}
        <Field label={t('detail.net')}>
          <span data-testid="grower-net">{money(c.growerNet)}</span>
        </Field>
      </Section>

      <AppModal
        opened={dialog === 'confirm'}
        onClose={() => setDialog(null)}
        title={t('actions.confirmTitle')}
      >
        <Stack>
          <Text>
            {t('actions.confirmText', {
              quantity: formatDecimal(c.quantity),
              date: day(c.deliveryDate),
              amount: groupThousands(String(c.amount)),
            })}
          </Text>
          {needsCode && (
            <TextInput
              label={t('actions.codeLabel')}
              description={
                c.acceptanceCode?.locked
                  ? t('actions.codeLocked')
                  : t('actions.codeHelp', { phone: c.acceptanceCode?.phone ?? '—' })
              }
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              size="lg"
              value={code}
              onChange={(e) => setCode(e.currentTarget.value.replace(/\D/g, ''))}
              disabled={c.acceptanceCode?.locked}
              data-autofocus
            />
          )}
          <FormAlert message={confirm.isError ? errorText(confirm.error) : null} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDialog(null)}>
              {t('common:cancel')}
            </Button>
            <Button
              loading={confirm.isPending}
              disabled={needsCode && code.length !== 6}
              onClick={() => confirm.mutate()}
            >
              {t('actions.confirm')}
            </Button>
          </Group>
        </Stack>
      </AppModal>

      <AppModal
        opened={dialog === 'cancel'}
        onClose={() => setDialog(null)}
        title={t('actions.cancelTitle')}
      >
        <Stack>
          <Text>
            {t('actions.cancelText', {
              reference: c.reference,
              amount: groupThousands(String(c.amount)),
            })}
          </Text>
          <FormAlert message={cancel.isError ? errorText(cancel.error) : null} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDialog(null)}>
              {t('actions.keep')}
            </Button>
            <Button color="red" loading={cancel.isPending} onClick={() => cancel.mutate()}>
              {t('actions.cancelConfirm')}
            </Button>
          </Group>
        </Stack>
      </AppModal>

      <RecordDeliveryModal
        contract={c}
        opened={dialog === 'deliver'}
        onClose={() => setDialog(null)}
        onDone={async () => {
          setDialog(null);
          notify('success', t('actions.deliverDone'));
          await refresh();
        }}
      />
    </Stack>
  );
}
