import { Alert, Badge, Button, Group, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../../shared/api/use-error-text.js';
import { useCurrentUser } from '../../../../shared/auth/current-user.js';
import { toLocalPhone } from '../../../../shared/format/phone.js';
import { StatusBadge } from '../../../../shared/ui/StatusBadge.js';
import { supplierQuery } from '../api/suppliers.js';
import { DeactivateSupplierModal } from './DeactivateSupplierModal.js';
import { FormFrame, Section } from './SupplierFormPage.js';
import { SUPPLIER_WRITERS } from './SuppliersPage.js';

/**
 * A supplier (fournisseurs-intrant/show/{id}): the company and its representative, its
 * delivery points, the fertilizers it supplies (by type) and its payout accounts; edit and
 * deactivate for the staff who may.
 */
export function SupplierDetailPage({ id }: { id: string }) {
  const { t } = useTranslation('suppliers');
  const errorText = useErrorText();
  const me = useCurrentUser();
  const navigate = useNavigate();
  const supplier = useQuery(supplierQuery(id));
  const [deactivating, setDeactivating] = useState(false);
  const s = supplier.data;
  if (!s) {
    return (
      <FormFrame title={t('detail.title')}>
        {supplier.isError ? (
          <Alert color="red" role="alert">
            {errorText(supplier.error)}
          </Alert>
        ) : (
          <Text c="dimmed">{t('common:loading')}</Text>
        )}
      </FormFrame>
    );
  }
  const name = `${s.user.firstname} ${s.user.lastname}`;
  const writes = SUPPLIER_WRITERS.includes(me?.role?.code ?? '') && s.isActive;
  const field = (label: string, value: string | null | undefined) => (
    <div>
      <Text size="sm" c="dark.4">
        {label}
      </Text>
      <Text fw={500}>{value || '—'}</Text>
    </div>
  );
  return (
    <FormFrame title={s.denomination}>
      <Group justify="space-between">
        <Group gap="xs">
          <Badge variant="light" color="gray">
            {s.reference}
          </Badge>
          <StatusBadge
            kind={s.isActive ? 'success' : 'danger'}
            label={t(s.isActive ? 'statuses.active' : 'statuses.inactive')}
          />
        </Group>
        {writes && (
          <Group gap="xs">
            <Button
              variant="light"
              leftSection={<IconPencil size={16} aria-hidden />}
              renderRoot={(props) => (
                <Link {...props} to="/fournisseurs-intrant/update/$id" params={{ id: s.id }} />
              )}
            >
              {t('common:edit')}
            </Button>
            <Button
              variant="light"
              color="red"
              leftSection={<IconTrash size={16} aria-hidden />}
              onClick={() => setDeactivating(true)}
            >
              {t('detail.deactivate')}
            </Button>
          </Group>
        )}
      </Group>
      <Section title={t('form.representative')}>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          {field(t('form.lastname'), s.user.lastname)}
          {field(t('form.firstname'), s.user.firstname)}
          {field(t('form.phone'), toLocalPhone(s.user.phone))}
          {field(t('form.email'), s.user.email)}
          {field(t('form.nip'), s.user.nip)}
          {field(t('form.rccm'), s.user.rccm)}
          {field(t('form.ifu'), s.user.ifu)}
        </SimpleGrid>
      </Section>
      <Section title={t('form.deliveryPoints')}>
        <Table.ScrollContainer minWidth={560}>
          <Table striped>
            <caption className="visually-hidden">{t('form.deliveryPoints')}</caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('form.pointFields.label')}</Table.Th>
                <Table.Th scope="col">{t('form.pointFields.address')}</Table.Th>
                <Table.Th scope="col">{t('form.pointFields.latitude')}</Table.Th>
                <Table.Th scope="col">{t('form.pointFields.longitude')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {s.locations.map((p) => (
                <Table.Tr key={p.id}>
                  <Table.Td>{p.label}</Table.Td>
                  <Table.Td>{p.address}</Table.Td>
                  <Table.Td>{p.latitude ?? '—'}</Table.Td>
                  <Table.Td>{p.longitude ?? '—'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Section>
      <Section title={t('form.fertilizers')}>
        <Stack gap={4}>
          {s.fertilizers.map((f) => (
            <Text key={f.id}>
              <Text span c="dark.4">
                {f.type.label} ·{' '}
              </Text>
              {f.label}
            </Text>
          ))}
        </Stack>
      </Section>
      <Section title={t('form.payout')}>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          {field(t('form.bankName'), s.accountInfo.providerName)}
          {field(t('form.accountNumber'), s.accountInfo.accountNumber)}
          {field(
            t('form.momoNumber'),
            s.momoInfo.momoNumber
              ? `${toLocalPhone(s.momoInfo.momoNumber)}${s.momoInfo.providerName ? ` (${s.momoInfo.providerName})` : ''}`
              : null,
          )}
        </SimpleGrid>
      </Section>
      <DeactivateSupplierModal
        supplier={deactivating ? { id: s.id, name } : null}
        onClose={() => setDeactivating(false)}
        onDone={() => void navigate({ to: '/fournisseurs-intrant' })}
      />
    </FormFrame>
  );
}
