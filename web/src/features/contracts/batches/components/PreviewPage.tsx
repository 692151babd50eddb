import { Alert, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../../shared/api/api-error.js';
import { useErrorText } from '../../../../shared/api/use-error-text.js';
import { useIdempotencyKey } from '../../../../shared/api/use-idempotency-key.js';
import { formatDate } from '../../../../shared/format/date.js';
import { formatDay } from '../model/format.js';
import { formatNumber } from '../../../../shared/format/money.js';
import { PAGE_SIZE } from '../../../../shared/search/list-search.js';
import { DataTable, type Column } from '../../../../shared/ui/DataTable.js';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { PaginationBar } from '../../../../shared/ui/PaginationBar.js';
import { notify } from '../../../../shared/ui/notify.js';
import { previewQuery, validatePreview, type PreviewRow } from '../api/batches.js';
import { InsufficientBalanceModal } from './InsufficientBalanceModal.js';
import { formatDecimal } from '../../../../shared/format/number.js';

/**
 * showUploadProducteurs (§2.5): the checked file's real rows before anything is created —
 * 'Le fichier contient N producteurs', pages of 10, 'Valider' (all or nothing; the 422 modal
 * when the wallet is short), then the parent's sub-contracts.
 */
export function PreviewPage({
  previewId,
  page,
  onPageChange,
}: {
  previewId: string;
  page: number;
  onPageChange: (page: number) => void;
}) {
  const { t } = useTranslation('contractBatches');
  const errorText = useErrorText();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const preview = useQuery(previewQuery(previewId, page));
  const key = useIdempotencyKey();
  const [missing, setMissing] = useState<number | null>(null);
  const validate = useMutation({
    mutationFn: () => validatePreview(previewId, key.current()),
    onSuccess: async (answer) => {
      key.renew();
      notify('success', t('preview.created', { count: answer.count, reference: answer.reference }));
      await queryClient.invalidateQueries({ queryKey: ['contracts'] });
      void navigate({ to: '/contrats/lots/$id', params: { id: answer.parentId } });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 422 && 'missingAmount' in error.data) {
        setMissing(Number(error.data.missingAmount));
      }
    },
  });
  const summary = preview.data;
  const columns: Column<PreviewRow & { id: string }>[] = [
    { name: 'line', title: t('preview.columns.line') },
    { name: 'growerReference', title: t('preview.columns.reference') },
    {
      name: 'grower',
      title: t('preview.columns.grower'),
      transform: (r) => `${r.lastname} ${r.firstname}`,
    },
    { name: 'plotName', title: t('preview.columns.plot') },
    { name: 'quantity', title: t('preview.columns.quantity') },
    {
      name: 'amount',
      title: t('preview.columns.amount'),
      transform: (r) => formatNumber(r.amount),
    },
    {
      name: 'deliveryDate',
      title: t('preview.columns.deliveryDate'),
      transform: (r) => formatDay(r.deliveryDate),
    },
  ];
  return (
    <Stack>
      <Group justify="space-between">
        <PageTitle>{t('preview.title')}</PageTitle>
        <Button variant="default" component={Link} to="/contrats/lots/create">
          {t('preview.back')}
        </Button>
      </Group>
      {preview.isError && (
        <Alert color="red" role="alert">
          {errorText(preview.error)}
        </Alert>
      )}
      {summary && (
        <Paper withBorder p="md" radius="md">
          <Text fw={600} size="lg" data-testid="preview-count">
            {t('preview.count', { count: summary.count })}
          </Text>
          <Text c="dark.6">
            {t('preview.totals', {
              quantity: formatDecimal(summary.totalQuantity),
              amount: formatNumber(summary.totalAmount),
            })}
          </Text>
          {summary.fileName && <Text size="sm">{summary.fileName}</Text>}
          {summary.parentId ? (
            <Text mt="sm">
              {t('preview.alreadyValidated')}{' '}
              <Link to="/contrats/lots/$id" params={{ id: summary.parentId }}>
                {t('preview.seeParent')}
              </Link>
            </Text>
          ) : (
            <Text size="sm" c="dark.5">
              {t('preview.expires', { date: formatDate(summary.expiresAt) })}
            </Text>
          )}
        </Paper>
      )}
      <Paper withBorder p="md" radius="md">
        <DataTable
          columns={columns}
          rows={summary?.data.map((r) => ({ ...r, id: String(r.line) }))}
          loading={preview.isLoading}
          caption={t('preview.title')}
        />
        <PaginationBar
          page={page}
          total={summary?.count ?? 0}
          perPage={PAGE_SIZE}
          onChange={onPageChange}
        />
      </Paper>
      {validate.isError &&
        !(
          validate.error instanceof ApiError &&
          validate.error.status === 422 &&
          missing !== null
        ) && (
          <Alert color="red" role="alert">
            {errorText(validate.error)}
          </Alert>
        )}
      {summary && !summary.parentId && (
        <Group justify="flex-end">
          <Button
            leftSection={<IconCheck size={16} aria-hidden />}
            loading={validate.isPending}
            onClick={() => validate.mutate()}
          >
            {t('preview.validate')}
          </Button>
        </Group>
      )}
      <InsufficientBalanceModal
        missingAmount={missing}
        onClose={() => setMissing(null)}
        onFund={() => void navigate({ to: '/approvisionnements', search: { showModal: 1 } })}
      />
    </Stack>
  );
}
