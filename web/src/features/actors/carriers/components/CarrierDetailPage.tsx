import { Alert, Button, Group, SimpleGrid, Stack, Table, Tabs, Text } from '@mantine/core';
import { IconPencil, IconRestore, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../../shared/api/use-error-text.js';
import { useCurrentUser } from '../../../../shared/auth/current-user.js';
import { ROLES } from '../../../../shared/auth/roles.js';
import { formatDate } from '../../../../shared/format/date.js';
import { formatMoney } from '../../../../shared/format/money.js';
import { toLocalPhone } from '../../../../shared/format/phone.js';
import type { ListSearch } from '../../../../shared/search/list-search.js';
import type { Column } from '../../../../shared/ui/DataTable.js';
import { ListPanel } from '../../../../shared/ui/ListPage.js';
import { notify } from '../../../../shared/ui/notify.js';
import { StatusBadge } from '../../../../shared/ui/StatusBadge.js';
import { CARRIAGE_BADGE } from '../../../contracts/carriage/model/search.js';
import { useVillageChain } from '../../../locations/index.js';
import { Field } from '../../cooperatives/components/CooperativePayout.js';
import { FormFrame, Section } from '../../cooperatives/components/CooperativeFormPage.js';
import {
  carrierContractsQuery,
  carrierKeys,
  carrierQuery,
  reactivateCarrier,
  type Carrier,
  type CarrierContract,
} from '../api/carriers.js';
import { CarrierPayout } from './CarrierPayout.js';
import { DeactivateCarrierModal } from './DeactivateCarrierModal.js';

/** transporteurs/show/{id}: tabs Profil (person, address, vehicles, payout) and Contrats. */
export function CarrierDetailPage({ id }: { id: string }) {
  const { t } = useTranslation('carriers');
  const errorText = useErrorText();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const me = useCurrentUser();
  const canWrite = me?.role?.code !== ROLES.INDUSTRIAL;
  const query = useQuery(carrierQuery(id));
  const [deactivating, setDeactivating] = useState(false);
  const reactivate = useMutation({
    mutationFn: () => reactivateCarrier(id),
    onSuccess: async (c) => {
      notify('success', t('reactivated', { name: `${c.user.firstname} ${c.user.lastname}` }));
      await queryClient.invalidateQueries({ queryKey: carrierKeys.all });
    },
    onError: (error) => notify('error', errorText(error)),
  });
  const c = query.data;
  if (!c) {
    return (
      <FormFrame title={t('detail.title')}>
        {query.isError ? (
          <Alert color="red" role="alert">
            {errorText(query.error)}
          </Alert>
        ) : (
          <Text c="dimmed">{t('common:loading')}</Text>
        )}
      </FormFrame>
    );
  }
  return (
    <FormFrame title={`${c.user.firstname} ${c.user.lastname}`}>
      <Group justify="space-between">
        <Group gap="xs">
          <Text c="dark.4">{c.reference}</Text>
          <StatusBadge
            kind={c.isActive ? 'success' : 'danger'}
            label={t(c.isActive ? 'active' : 'deactivated')}
          />
        </Group>
        {canWrite && (
          <Group gap="xs">
            {c.isActive ? (
              <>
                <Button
                  variant="default"
                  renderRoot={(props) => (
                    <Link {...props} to="/transporteurs/edit/$id" params={{ id: c.id }} />
                  )}
                  leftSection={<IconPencil size={16} aria-hidden />}
                >
                  {t('editButton')}
                </Button>
                <Button
                  variant="default"
                  color="red"
                  leftSection={<IconTrash size={16} aria-hidden />}
                  onClick={() => setDeactivating(true)}
                >
                  {t('deactivate')}
                </Button>
              </>
            ) : (
              <Button
                variant="light"
                leftSection={<IconRestore size={16} aria-hidden />}
                loading={reactivate.isPending}
                onClick={() => reactivate.mutate()}
              >
                {t('reactivate')}
              </Button>
            )}
          </Group>
        )}
      </Group>
      <Tabs defaultValue="profile" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="profile">{t('tabs.profile')}</Tabs.Tab>
          <Tabs.Tab value="contracts">{t('tabs.contracts')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="profile" pt="md">
          <Profile carrier={c} />
        </Tabs.Panel>
        <Tabs.Panel value="contracts" pt="md">
          <Contracts carrierId={c.id} />
        </Tabs.Panel>
      </Tabs>
      <DeactivateCarrierModal
        carrier={deactivating ? c : null}
        onClose={() => setDeactivating(false)}
        onDone={() => navigate({ to: '/transporteurs' })}
      />
    </FormFrame>
  );
}

function Profile({ carrier: c }: { carrier: Carrier }) {
  const { t } = useTranslation('carriers');
  const chain = useVillageChain(c.user.village);
  const none = t('detail.none');
  const place = chain.data
    ? [chain.data.village, chain.data.arrondissement, chain.data.commune, chain.data.department]
        .map((p) => p.name)
        .join(', ')
    : '';
  return (
    <Stack gap="lg">
      <Section title={t('form.personal')}>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <Field label={t('form.lastname')} value={c.user.lastname} />
          <Field label={t('form.firstname')} value={c.user.firstname} />
          <Field label={t('form.phone')} value={toLocalPhone(c.user.phone) || none} />
          <Field label={t('form.email')} value={c.user.email ?? none} />
          <Field label={t('form.nip')} value={c.user.nip ?? none} />
          <Field
            label={t('form.street')}
            value={[c.carrier.address, place].filter(Boolean).join(' — ')}
          />
        </SimpleGrid>
      </Section>
      <Section title={t('form.vehicles')}>
        {c.cars.length ? (
          <Table.ScrollContainer minWidth={480}>
            <Table striped>
              <caption className="visually-hidden">{t('form.vehicles')}</caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('vehicles.type')}</Table.Th>
                  <Table.Th scope="col">{t('vehicles.registration')}</Table.Th>
                  <Table.Th scope="col">{t('vehicles.emptyWeight')}</Table.Th>
                  <Table.Th scope="col">{t('vehicles.capacityLabel')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {c.cars.map((car) => (
                  <Table.Tr key={car.id}>
                    <Table.Td>{t(`carTypes.${car.carType}`)}</Table.Td>
                    <Table.Td>{car.registration}</Table.Td>
                    <Table.Td>{car.emptyWeight ?? none}</Table.Td>
                    <Table.Td>{car.capacity}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        ) : (
          <Text c="dimmed">{t('vehicles.none')}</Text>
        )}
      </Section>
      <Section title={t('form.payout')}>
        <CarrierPayout carrier={c} />
      </Section>
    </Stack>
  );
}

function Contracts({ carrierId }: { carrierId: string }) {
  const { t } = useTranslation(['carriers', 'contracts']);
  const [search, setSearch] = useState<ListSearch<never>>({});
  const list = useQuery(carrierContractsQuery(carrierId, search));
  const columns: Column<CarrierContract>[] = [
    { name: 'reference', title: t('contracts.reference') },
    {
      name: 'vehicle',
      title: t('contracts.vehicle'),
      transform: (r) => (r.vehicle ? t(`carTypes.${r.vehicle.carType}`) : ''),
    },
    {
      name: 'transportDate',
      title: t('contracts.transportDate'),
      transform: (r) => formatDate(r.transportDate),
    },
    {
      name: 'amount',
      title: t('contracts.amount'),
      transform: (r) =>
        r.amount === null || r.amount === undefined ? '' : formatMoney(Number(r.amount)),
    },
    {
      name: 'status',
      title: t('contracts.status'),
      transform: (r) => (
        <StatusBadge
          kind={CARRIAGE_BADGE[r.status]}
          label={t(`contracts:carriage.statuses.${r.status}`)}
        />
      ),
    },
  ];
  return (
    <ListPanel
      search={search}
      onSearchChange={(next) => setSearch((prev) => ({ ...prev, ...next }))}
      searchPlaceholder={t('contracts.searchPlaceholder')}
      columns={columns}
      list={list}
      caption={t('tabs.contracts')}
    />
  );
}
