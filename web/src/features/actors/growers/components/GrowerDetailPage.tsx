import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import {
  IconArrowLeft,
  IconBan,
  IconKey,
  IconPencil,
  IconPlus,
  IconRestore,
} from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../../shared/api/use-error-text.js';
import { useCurrentUser } from '../../../../shared/auth/current-user.js';
import { can } from '../../../../shared/auth/permissions.js';
import { formatDate } from '../../../../shared/format/date.js';
import { toLocalPhone } from '../../../../shared/format/phone.js';
import type { ListSearch } from '../../../../shared/search/list-search.js';
import { AppModal } from '../../../../shared/ui/AppModal.js';
import { GrowerCardButton } from '../../../contracts/pdf/index.js';
import { notify } from '../../../../shared/ui/notify.js';
import { StatusBadge } from '../../../../shared/ui/StatusBadge.js';
import { useVillageChain } from '../../../locations/index.js';
import { growerQuery, resetPin, type Grower, type Plot } from '../api/growers.js';
import { formatArea, isBanned, totalArea } from '../model/grower-form.js';
import { BanGrowerModal, type BanAction } from './BanGrowerModal.js';
import { GrowerContracts } from './GrowerContracts.js';
import { Field, PayoutAccount } from './PayoutAccount.js';
import { PlotModal } from './PlotModal.js';
import { formatDecimal } from '../../../../shared/format/number.js';

/**
 * showProducteur (spec §2.1): profile (personal and account information), plots with the
 * add/edit-plot modal, the grower's contracts; 'Réinitialiser le code PIN' for the cluster
 * manager only, 'Bannir' / 'Réintégrer' (confirmed) for the super admin.
 */
export function GrowerDetailPage({
  id,
  contractsSearch,
  onContractsSearchChange,
}: {
  id: string;
  contractsSearch: ListSearch<never>;
  onContractsSearchChange: (next: ListSearch<never>) => void;
}) {
  const { t } = useTranslation('growers');
  const errorText = useErrorText();
  const grower = useQuery(growerQuery(id));
  if (!grower.data) {
    return (
      <Stack>
        <BackLink />
        {grower.isError ? (
          <Alert color="red" role="alert">
            {errorText(grower.error)}
          </Alert>
        ) : (
          <Text c="dimmed">{t('common:loading')}</Text>
        )}
      </Stack>
    );
  }
  return (
    <GrowerDetail
      grower={grower.data}
      contractsSearch={contractsSearch}
      onContractsSearchChange={onContractsSearchChange}
    />
  );
}

function BackLink() {
  const { t } = useTranslation('growers');
  return (
    <Group>
      <Button
        component={Link}
        to="/producteurs"
        variant="subtle"
        leftSection={<IconArrowLeft size={16} aria-hidden />}
      >
        {t('detail.back')}
      </Button>
    </Group>
  );
}

function Card({
  title,
  action,
  children,
}: {
  title: string;
  action?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-label={title}>
      <Group justify="space-between" mb="md">
        <Title order={2} size="h4">
          {title}
        </Title>
        {action}
      </Group>
      {children}
    </Paper>
  );
}

/** The names of a stored village chain: 'VILLAGE, ARRONDISSEMENT, COMMUNE, DÉPARTEMENT'. */
function Place({ village }: { village: string | null | undefined }) {
  const chain = useVillageChain(village);
  if (!village) return <>—</>;
  const c = chain.data;
  return (
    <>
      {c
        ? [c.village.name, c.arrondissement.name, c.commune.name, c.department.name].join(', ')
        : village}
    </>
  );
}

function GrowerDetail({
  grower,
  contractsSearch,
  onContractsSearchChange,
}: {
  grower: Grower;
  contractsSearch: ListSearch<never>;
  onContractsSearchChange: (next: ListSearch<never>) => void;
}) {
  const { t, i18n } = useTranslation('growers');
  const me = useCurrentUser();
  const manages = can(me, 'grower.manage');
  const [plot, setPlot] = useState<Plot | 'new' | null>(null);
  const [target, setTarget] = useState<BanAction | null>(null);
  // A new PIN replaces the grower's at once: asked for first.
  const [confirmingPin, setConfirmingPin] = useState(false);
  const banned = isBanned(grower);
  const u = grower.user;
  const name = `${u.firstname} ${u.lastname}`;
  const none = t('detail.none');

  const pin = useMutation({
    mutationFn: () => resetPin(u.id),
    onSettled: () => setConfirmingPin(false),
    onSuccess: (answer) => {
      if (answer?.statusCode === undefined || answer.statusCode === 200) {
        notify('success', answer?.message ?? t('detail.resetPinFailed'));
      } else notify('error', t('detail.resetPinFailed'));
    },
    onError: () => notify('error', t('detail.resetPinFailed')),
  });

  const plots = grower.products ?? [];
  return (
    <Stack gap="lg">
      <BackLink />
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={1} size="h2">
            {name}
          </Title>
          <Group gap="xs" mt={4}>
            <Text c="dark.4">
              {t('detail.reference')} : {grower.reference}
            </Text>
            <StatusBadge
              kind={banned ? 'danger' : 'success'}
              label={t(banned ? 'banned' : 'detail.active')}
            />
          </Group>
        </div>
        <Group gap="sm">
          <GrowerCardButton growerId={grower.id} />
          {manages && (
            <Button
              renderRoot={(props) => (
                <Link {...props} to="/producteurs/edit/$id" params={{ id: grower.id }} />
              )}
              variant="default"
              leftSection={<IconPencil size={16} aria-hidden />}
            >
              {t('detail.edit')}
            </Button>
          )}
          {can(me, 'grower.resetPin') && (
            <Button
              variant="default"
              leftSection={<IconKey size={16} aria-hidden />}
              loading={pin.isPending}
              onClick={() => setConfirmingPin(true)}
            >
              {t('detail.resetPin')}
            </Button>
          )}
          <AppModal
            opened={confirmingPin}
            onClose={() => setConfirmingPin(false)}
            title={t('detail.resetPinTitle')}
          >
            <Stack>
              <Text>
                {t('detail.resetPinText', { name, phone: toLocalPhone(u.phone) || none })}
              </Text>
              <Group justify="flex-end">
                <Button
                  variant="default"
                  onClick={() => setConfirmingPin(false)}
                  disabled={pin.isPending}
                >
                  {t('common:cancel')}
                </Button>
                <Button loading={pin.isPending} onClick={() => pin.mutate()}>
                  {t('detail.resetPinConfirm')}
                </Button>
              </Group>
            </Stack>
          </AppModal>
          {can(me, 'grower.ban') &&
            (banned ? (
              <Button
                variant="light"
                leftSection={<IconRestore size={16} aria-hidden />}
                onClick={() => setTarget({ grower, action: 'reinstate' })}
              >
                {t('reinstate')}
              </Button>
            ) : (
              <Button
                color="red"
                variant="outline"
                leftSection={<IconBan size={16} aria-hidden />}
                onClick={() => setTarget({ grower, action: 'ban' })}
              >
                {t('ban')}
              </Button>
            ))}
        </Group>
      </Group>

      <Card title={t('detail.personal')}>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <Field label={t('form.lastname')} value={u.lastname} />
          <Field label={t('form.firstname')} value={u.firstname} />
          <Field label={t('form.phone')} value={toLocalPhone(u.phone) || none} />
          <Field label={t('form.nip')} value={u.nip || none} />
          <Field label={t('form.email')} value={u.email || none} />
          <Field
            label={t('form.cooperative')}
            value={grower.farmerOrganization?.label ?? t('noCooperative')}
          />
          <Field label={t('form.contactFullname')} value={u.contactFullname || none} />
          <Field label={t('form.contactPhone')} value={toLocalPhone(u.contactPhone) || none} />
          <div>
            <Text size="sm" c="dark.4">
              {t('detail.address')}
            </Text>
            <Text fw={500}>
              <Place village={u.village} />
            </Text>
          </div>
        </SimpleGrid>
      </Card>

      <Card title={t('detail.account')}>
        <PayoutAccount grower={grower} />
      </Card>

      <Card
        title={`${t('detail.plots')} (${formatArea(totalArea(grower), i18n.language)} ha)`}
        action={
          manages && (
            <Button
              variant="light"
              leftSection={<IconPlus size={16} aria-hidden />}
              onClick={() => setPlot('new')}
            >
              {t('plot.add')}
            </Button>
          )
        }
      >
        <Table.ScrollContainer minWidth={640}>
          <Table striped verticalSpacing="sm">
            <caption className="visually-hidden">{t('detail.plots')}</caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('plot.location')}</Table.Th>
                <Table.Th scope="col">{t('plot.productType')}</Table.Th>
                <Table.Th scope="col">{t('detail.address')}</Table.Th>
                <Table.Th scope="col">{t('plot.areaSown')}</Table.Th>
                <Table.Th scope="col">{t('plot.plantingDate')}</Table.Th>
                <Table.Th scope="col">{t('plot.estimatedProduction')}</Table.Th>
                <Table.Th scope="col">{t('columns.action')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {plots.length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={7}>
                    <Text ta="center" c="dimmed" py="md">
                      {t('detail.noPlots')}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ) : (
                plots.map((p) => (
                  <Table.Tr key={p.id}>
                    <Table.Td>{p.location}</Table.Td>
                    <Table.Td>{t(`plot.types.${p.productType}`)}</Table.Td>
                    <Table.Td>
                      <Place village={p.village} />
                    </Table.Td>
                    <Table.Td>{formatArea(Number(p.areaSown), i18n.language)}</Table.Td>
                    <Table.Td>{p.plantingDate ? formatDate(p.plantingDate) : none}</Table.Td>
                    <Table.Td>
                      {p.estimatedProduction == null ? none : formatDecimal(p.estimatedProduction)}
                    </Table.Td>
                    <Table.Td>
                      {manages && (
                        <ActionIcon
                          variant="subtle"
                          aria-label={t('plot.editAction', { name: p.location })}
                          onClick={() => setPlot(p)}
                        >
                          <IconPencil size={18} aria-hidden />
                        </ActionIcon>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))
              )}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Card>

      <GrowerContracts
        growerId={grower.id}
        search={contractsSearch}
        onSearchChange={onContractsSearchChange}
      />

      {plot && (
        <PlotModal
          key={plot === 'new' ? 'new' : plot.id}
          growerId={grower.id}
          plot={plot}
          onClose={() => setPlot(null)}
        />
      )}
      <BanGrowerModal target={target} onClose={() => setTarget(null)} />
    </Stack>
  );
}
