import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Button,
  Checkbox,
  FileInput,
  Group,
  Paper,
  Stack,
  Tabs,
  Text,
  TextInput,
} from '@mantine/core';
import { IconDownload, IconFileSpreadsheet, IconUpload, IconUsers } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { api } from '../../../../shared/api/client.js';
import type { ApiResponse, RowOf } from '../../../../shared/api/types.js';
import { useErrorText } from '../../../../shared/api/use-error-text.js';
import { toPage } from '../../../../shared/auth/user.js';
import { PAGE_SIZE } from '../../../../shared/search/list-search.js';
import { DataTable, type Column } from '../../../../shared/ui/DataTable.js';
import { ListToolbar } from '../../../../shared/ui/ListToolbar.js';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { PaginationBar } from '../../../../shared/ui/PaginationBar.js';
import { useFieldError } from '../../../../shared/ui/use-field-error.js';
import {
  downloadTemplate,
  FileRefusedError,
  previewFromGrowers,
  uploadContractFile,
  type PreviewSummary,
} from '../api/batches.js';
import type { CreateSearch } from '../model/search.js';
import { selectionForm, toRows, type SelectionForm } from '../model/selection-form.js';
import { ProblemsTable } from './ProblemsTable.js';

/** The 5 Mo the API accepts, checked here first to spare an upload. */
const MAX_BYTES = 5 * 1024 * 1024;

type GrowerOption = RowOf<ApiResponse<'/api/grower'>>;

/**
 * createContratLivraisonMany (§2.5): create many delivery contracts — from a file (.xlsx or
 * .csv, the template downloadable) checked by the server, or from growers selected here
 * (their references as a file, or the same quantity and amount for each). Both lead to the
 * confirmation page; nothing is created before 'Valider'.
 */
export function CreateBatchPage({
  search,
  onSearchChange,
}: {
  search: CreateSearch;
  onSearchChange: (next: Partial<CreateSearch>) => void;
}) {
  const { t } = useTranslation('contractBatches');
  const navigate = useNavigate();
  const toPreview = (summary: PreviewSummary) =>
    void navigate({
      to: '/contrats/lots/apercu/$previewId',
      params: { previewId: summary.previewId },
    });
  return (
    <Stack>
      <PageTitle>{t('create.title')}</PageTitle>
      <Tabs
        value={search.tab ?? 'file'}
        onChange={(tab) =>
          onSearchChange({
            tab: (tab as 'file' | 'growers') ?? 'file',
            page: undefined,
            q: undefined,
          })
        }
      >
        <Tabs.List>
          <Tabs.Tab value="file" leftSection={<IconFileSpreadsheet size={16} aria-hidden />}>
            {t('create.fileTab')}
          </Tabs.Tab>
          <Tabs.Tab value="growers" leftSection={<IconUsers size={16} aria-hidden />}>
            {t('create.growersTab')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="file" pt="md">
          <FileUpload onPreview={toPreview} />
        </Tabs.Panel>
        <Tabs.Panel value="growers" pt="md">
          <GrowerSelection search={search} onSearchChange={onSearchChange} onPreview={toPreview} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

function FileUpload({ onPreview }: { onPreview: (summary: PreviewSummary) => void }) {
  const { t } = useTranslation('contractBatches');
  const errorText = useErrorText();
  const [file, setFile] = useState<File | null>(null);
  const [tooBig, setTooBig] = useState(false);
  const upload = useMutation({ mutationFn: uploadContractFile, onSuccess: onPreview });
  const refused = upload.error instanceof FileRefusedError ? upload.error : null;
  return (
    <Paper withBorder p="md" radius="md">
      <Text mb="sm">{t('create.fileHelp')}</Text>
      <Group mb="md">
        <Button
          variant="default"
          leftSection={<IconDownload size={16} aria-hidden />}
          onClick={() => void downloadTemplate('xlsx')}
        >
          {t('create.templateXlsx')}
        </Button>
        <Button
          variant="default"
          leftSection={<IconDownload size={16} aria-hidden />}
          onClick={() => void downloadTemplate('csv')}
        >
          {t('create.templateCsv')}
        </Button>
      </Group>
      <Group align="flex-end">
        <FileInput
          label={t('create.fileLabel')}
          placeholder={t('create.filePlaceholder')}
          accept=".xlsx,.csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,text/csv"
          clearable
          clearButtonProps={{ 'aria-label': t('create.clear') }}
          value={file}
          onChange={(value) => {
            upload.reset();
            setFile(value);
            setTooBig((value?.size ?? 0) > MAX_BYTES);
          }}
          error={tooBig ? t('create.tooBig') : undefined}
          style={{ flex: 1 }}
        />
        <Button
          leftSection={<IconUpload size={16} aria-hidden />}
          disabled={!file || tooBig}
          loading={upload.isPending}
          onClick={() => file && upload.mutate(file)}
        >
          {t('create.check')}
        </Button>
      </Group>
      {refused && <ProblemsTable message={refused.message} problems={refused.problems} />}
      {upload.isError && !refused && (
        <Alert color="red" role="alert" mt="md">
          {errorText(upload.error)}
        </Alert>
      )}
    </Paper>
  );
}

function GrowerSelection({
  search,
  onSearchChange,
  onPreview,
}: {
  search: CreateSearch;
  onSearchChange: (next: Partial<CreateSearch>) => void;
  onPreview: (summary: PreviewSummary) => void;
}) {
  const { t } = useTranslation('contractBatches');
  const errorText = useErrorText();
  const fieldError = useFieldError();
  const page = search.page ?? 1;
  const growers = useQuery({
    queryKey: ['growers', 'batch-selection', page, search.q ?? ''],
    queryFn: async () =>
      toPage(
        await api<ApiResponse<'/api/grower'>>('/grower', {
          query: { page, limit: PAGE_SIZE, q: search.q },
        }),
      ),
    placeholderData: keepPreviousData,
  });
  const [selected, setSelected] = useState<Map<string, string>>(new Map());
  const toggle = (g: GrowerOption, on: boolean) =>
    setSelected((prev) => {
      const next = new Map(prev);
      if (on) next.set(g.id, g.reference);
      else next.delete(g.id);
      return next;
    });
  const form = useForm<SelectionForm>({
    resolver: zodResolver(selectionForm),
    mode: 'onChange',
    defaultValues: { quantity: '', amount: '', deliveryDate: '' },
  });
  const prepare = useMutation({
    mutationFn: (values: SelectionForm) => previewFromGrowers(toRows([...selected.keys()], values)),
    onSuccess: onPreview,
  });
  const refused = prepare.error instanceof FileRefusedError ? prepare.error : null;
  const rows = growers.data?.data ?? [];
  const columns: Column<GrowerOption>[] = [
    {
      name: 'select',
      title: t('growers.select'),
      transform: (g) => (
        <Checkbox
          aria-label={t('growers.selectRow', { reference: g.reference })}
          checked={selected.has(g.id)}
          onChange={(e) => toggle(g, e.currentTarget.checked)}
        />
      ),
    },
    { name: 'reference', title: t('growers.reference') },
    {
      name: 'name',
      title: t('growers.name'),
      transform: (g) => `${g.user.lastname} ${g.user.firstname}`,
    },
    { name: 'phone', title: t('growers.phone'), transform: (g) => g.user.phone ?? '—' },
  ];
  return (
    <Stack>
      <Paper withBorder p="md" radius="md">
        <Text mb="sm">{t('growers.help')}</Text>
        <ListToolbar
          q={search.q}
          placeholder={t('growers.search')}
          onSearch={(q) => onSearchChange({ q, page: undefined })}
        />
        <DataTable
          columns={columns}
          rows={growers.data?.data}
          loading={growers.isLoading}
          caption={t('growers.caption')}
        />
        <PaginationBar
          page={page}
          total={growers.data?.count ?? 0}
          perPage={PAGE_SIZE}
          onChange={(p) => onSearchChange({ page: p })}
        />
        {rows.length > 0 && selected.size === 0 && (
          <Text size="sm" c="dark.5" mt="xs">
            {t('growers.noneSelected')}
          </Text>
        )}
      </Paper>
      <Paper withBorder p="md" radius="md">
        <Text fw={500} role="status" mb="sm">
          {t('growers.selected', { count: selected.size })}
        </Text>
        <Group mb="md">
          <Button
            variant="default"
            leftSection={<IconDownload size={16} aria-hidden />}
            disabled={selected.size === 0}
            onClick={() => void downloadTemplate('xlsx', [...selected.keys()])}
          >
            {t('growers.downloadReferences')}
          </Button>
        </Group>
        <form onSubmit={form.handleSubmit((values) => prepare.mutate(values))} noValidate>
          <Group align="flex-start" grow>
            <TextInput
              label={t('growers.quantity')}
              inputMode="decimal"
              withAsterisk
              {...form.register('quantity')}
              error={fieldError(form.formState.errors.quantity)}
            />
            <TextInput
              label={t('growers.amount')}
              inputMode="numeric"
              withAsterisk
              {...form.register('amount')}
              error={fieldError(form.formState.errors.amount)}
            />
            <TextInput
              type="date"
              label={t('growers.deliveryDate')}
              description={t('growers.deliveryDateHelp')}
              {...form.register('deliveryDate')}
            />
          </Group>
          <Group justify="flex-end" mt="md">
            <Button
              type="submit"
              disabled={selected.size === 0 || !form.formState.isValid}
              loading={prepare.isPending}
            >
              {t('growers.prepare')}
            </Button>
          </Group>
        </form>
        {refused && <ProblemsTable message={refused.message} problems={refused.problems} />}
        {prepare.isError && !refused && (
          <Alert color="red" role="alert" mt="md">
            {errorText(prepare.error)}
          </Alert>
        )}
      </Paper>
    </Stack>
  );
}
