import { zodResolver } from '@hookform/resolvers/zod';
import { Autocomplete, Button, Group, Modal, Select, Stack, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Controller, useForm, useWatch, type FieldError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { ApiError } from '../../../shared/api/api-error.js';
import { useErrorText } from '../../../shared/api/use-error-text.js';
import type { ListSearch } from '../../../shared/search/list-search.js';
import type { Column } from '../../../shared/ui/DataTable.js';
import { ListPanel } from '../../../shared/ui/ListPage.js';
import { notify } from '../../../shared/ui/notify.js';
import { useFieldError } from '../../../shared/ui/use-field-error.js';
import {
  bankMappingsQuery,
  saveBankMapping,
  type BankMapping,
  type BankMappingRow,
} from '../api/reconciliation.js';
import { readSample, sampleText, SampleCsvPicker, SamplePreview } from './SampleCsv.js';

export const DELIMITERS = [';', ',', '\t'] as const satisfies readonly BankMapping['delimiter'][];
export const DATE_FORMATS = [
  'DD/MM/YYYY',
  'ISO',
] as const satisfies readonly BankMapping['dateFormat'][];
const COLUMNS = ['date', 'amount', 'direction', 'reference', 'label', 'account'] as const;
type ColumnField = (typeof COLUMNS)[number];
const OPTIONAL: readonly ColumnField[] = ['direction', 'account'];

/** The delimiter's key in the texts (a tab is no key). */
const delimiterKey = (d: BankMapping['delimiter']) =>
  d === ';' ? 'semicolon' : d === ',' ? 'comma' : 'tab';

const column = z.string().trim().max(100, 'reconciliation:mappings.errors.tooLong');
const required = column.min(1, 'validation:required');
/** The rules of `PUT /api/reconciliation/bank-mappings/{bankCode}`, as the API checks them. */
const mappingSchema = z
  .object({
    bankCode: z
      .string()
      .trim()
      .min(1, 'validation:required')
      .regex(/^[A-Z0-9_]{1,40}$/, 'reconciliation:mappings.errors.bankCode'),
    delimiter: z.enum(DELIMITERS),
    date: required,
    dateFormat: z.enum(DATE_FORMATS),
    amount: required,
    direction: column,
    reference: required,
    label: required,
    account: column,
  })
  .superRefine((m, ctx) => {
    for (const field of COLUMNS) {
      if (m[field].includes(m.delimiter)) {
        ctx.addIssue({
          code: 'custom',
          path: [field],
          message: `reconciliation:mappings.errors.separator.${delimiterKey(m.delimiter)}`,
        });
      }
    }
  });
type MappingValues = z.input<typeof mappingSchema>;

const EMPTY: MappingValues = {
  bankCode: '',
  delimiter: ';',
  date: '',
  dateFormat: 'DD/MM/YYYY',
  amount: '',
  direction: '',
  reference: '',
  label: '',
  account: '',
};

const valuesOf = (row: BankMappingRow | null): MappingValues =>
  row
    ? {
        ...EMPTY,
        ...row.mapping,
        bankCode: row.bankCode,
        direction: row.mapping.direction ?? '',
        account: row.mapping.account ?? '',
      }
    : EMPTY;

/** The body the API takes: an optional column left empty is absent. */
function toBody(values: MappingValues): { bankCode: string; body: BankMapping } {
  const { bankCode, ...m } = mappingSchema.parse(values);
  return {
    bankCode,
    body: {
      ...m,
      direction: m.direction || undefined,
      account: m.account || undefined,
    },
  };
}

/**
 * 'Formats CSV des banques': the saved column mappings (searched by bank code, pages of 10);
 * finance adds or edits one, the auditor only reads them.
 */
export function BankMappingsPanel({
  finance,
  onEdit,
}: {
  finance: boolean;
  /** Opens the form: `null` adds a mapping. */
  onEdit: (row: BankMappingRow | null) => void;
}) {
  const { t } = useTranslation('reconciliation');
  const [search, setSearch] = useState<ListSearch<never>>({});
  const list = useQuery(bankMappingsQuery(search.page ?? 1, search.q));
  const columnsOf = (m: BankMappingRow['mapping']) =>
    [
      `${t('mappings.fields.date')} : ${m.date} (${t(`mappings.dateFormats.${m.dateFormat}`)})`,
      `${t('mappings.fields.amount')} : ${m.amount}`,
      m.direction && `${t('mappings.fields.direction')} : ${m.direction}`,
      `${t('mappings.fields.reference')} : ${m.reference}`,
      `${t('mappings.fields.label')} : ${m.label}`,
      m.account && `${t('mappings.fields.account')} : ${m.account}`,
    ]
      .filter(Boolean)
      .join(' · ');
  const columns: Column<BankMappingRow & { id: string }>[] = [
    { name: 'bankCode', title: t('mappings.fields.bankCode') },
    {
      name: 'delimiter',
      title: t('mappings.fields.delimiter'),
      transform: (r) => t(`mappings.delimiters.${delimiterKey(r.mapping.delimiter)}`),
    },
    { name: 'columns', title: t('mappings.columns'), transform: (r) => columnsOf(r.mapping) },
    ...(finance
      ? [
          {
            name: 'edit',
            title: t('mappings.actions'),
            transform: (r: BankMappingRow) => (
              <Button
                size="xs"
                variant="light"
                aria-label={t('mappings.editOf', { code: r.bankCode })}
                onClick={() => onEdit(r)}
              >
                {t('mappings.edit')}
              </Button>
            ),
          },
        ]
      : []),
  ];
  return (
    <ListPanel<BankMappingRow & { id: string }, never>
      header={
        <Title order={2} size="h4" mb="sm">
          {t('mappings.title')}
        </Title>
      }
      search={search}
      onSearchChange={(next) => setSearch((s) => ({ ...s, ...next }))}
      searchPlaceholder={t('mappings.search')}
      actions={
        finance && (
          <Button variant="light" onClick={() => onEdit(null)}>
            {t('mappings.add')}
          </Button>
        )
      }
      columns={columns}
      list={{
        isLoading: list.isLoading,
        data: list.data && {
          count: list.data.count,
          data: list.data.data.map((r) => ({ ...r, id: r.bankCode })),
        },
      }}
      caption={t('mappings.title')}
    />
  );
}

/** 'Ajouter un format' / 'Modifier le format': a bank's CSV columns, as its file names them. */
export function BankMappingModal({
  opened,
  mapping,
  onClose,
  onSaved,
}: {
  opened: boolean;
  /** The mapping edited; `null` adds one. */
  mapping: BankMappingRow | null;
  onClose: () => void;
  onSaved?: (bankCode: string) => void;
}) {
  const { t } = useTranslation('reconciliation');
  const fieldError = useFieldError();
  const errorText = useErrorText();
  const client = useQueryClient();
  const form = useForm<MappingValues>({
    resolver: zodResolver(mappingSchema),
    mode: 'onTouched',
    defaultValues: valuesOf(mapping),
  });
  const { control } = form;
  useEffect(() => {
    if (opened) form.reset(valuesOf(mapping));
  }, [opened, mapping, form]);
  // A sample file, read in the browser only: its headers to choose from, its first rows read.
  const [sampleFile, setSampleFile] = useState<File | null>(null);
  const [sample, setSample] = useState<string | null>(null);
  const close = () => {
    setSampleFile(null);
    setSample(null);
    onClose();
  };
  const pickSample = (file: File | null) => {
    setSampleFile(file);
    setSample(null);
    if (file) void sampleText(file).then(setSample);
  };
  const current = useWatch({ control });
  const read = sample === null ? null : readSample(sample, current.delimiter ?? ';');
  const headers = [...new Set(read?.header ?? [])].filter((h) => h !== '');
  const ready = mappingSchema.safeParse({ ...current, bankCode: 'X' });
  const save = useMutation({
    mutationFn: (values: MappingValues) => {
      const { bankCode, body } = toBody(values);
      return saveBankMapping(bankCode, body);
    },
    onSuccess: async (saved) => {
      notify('success', t('mappings.saved', { code: saved.bankCode }));
      await client.invalidateQueries({ queryKey: ['reconciliation', 'bank-mappings'] });
      onSaved?.(saved.bankCode);
      close();
    },
    onError: (error) => {
      notify('error', errorText(error));
      if (error instanceof ApiError) {
        for (const [field, message] of Object.entries(error.fields ?? {})) {
          if (field in EMPTY) {
            form.setError(field as keyof MappingValues, { type: 'server', message });
          }
        }
      }
    },
  });
  const text = (error: FieldError | undefined) =>
    error?.type === 'server' ? error.message : fieldError(error);
  const columnInput = (name: ColumnField) => (
    <Controller
      key={name}
      control={control}
      name={name}
      render={({ field, fieldState }) => {
        const props = {
          label: OPTIONAL.includes(name)
            ? t('mappings.optional', { label: t(`mappings.fields.${name}`) })
            : t(`mappings.fields.${name}`),
          description: t(`mappings.help.${name}`),
          required: !OPTIONAL.includes(name),
          error: text(fieldState.error),
        };
        return headers.length > 0 ? (
          <Autocomplete {...field} {...props} data={headers} onChange={(v) => field.onChange(v)} />
        ) : (
          <TextInput {...field} {...props} />
        );
      }}
    />
  );
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={mapping ? t('mappings.editTitle', { code: mapping.bankCode }) : t('mappings.add')}
      size="lg"
      closeButtonProps={{ 'aria-label': t('common:close') }}
    >
      <form onSubmit={form.handleSubmit((values) => save.mutate(values))} noValidate>
        <Stack gap="sm">
          <Controller
            control={control}
            name="bankCode"
            render={({ field, fieldState }) => (
              <TextInput
                {...field}
                onChange={(ev) => field.onChange(ev.currentTarget.value.toUpperCase())}
                label={t('mappings.fields.bankCode')}
                description={t('mappings.help.bankCode')}
                required
                readOnly={mapping !== null}
                error={text(fieldState.error)}
              />
            )}
          />
          <Group grow align="flex-start" wrap="wrap">
            <Controller
              control={control}
              name="delimiter"
              render={({ field, fieldState }) => (
                <Select
                  label={t('mappings.fields.delimiter')}
                  description={t('mappings.help.delimiter')}
                  data={DELIMITERS.map((d) => ({
                    value: d,
                    label: t(`mappings.delimiters.${delimiterKey(d)}`),
                  }))}
                  value={field.value}
                  allowDeselect={false}
                  onChange={(v) => {
                    field.onChange(v ?? ';');
                    void form.trigger();
                  }}
                  error={text(fieldState.error)}
                  style={{ minWidth: 160 }}
                />
              )}
            />
            <Controller
              control={control}
              name="dateFormat"
              render={({ field, fieldState }) => (
                <Select
                  label={t('mappings.fields.dateFormat')}
                  description={t('mappings.help.dateFormat')}
                  data={DATE_FORMATS.map((f) => ({
                    value: f,
                    label: t(`mappings.dateFormats.${f}`),
                  }))}
                  value={field.value}
                  allowDeselect={false}
                  onChange={(v) => field.onChange(v ?? 'DD/MM/YYYY')}
                  error={text(fieldState.error)}
                  style={{ minWidth: 160 }}
                />
              )}
            />
          </Group>
          <SampleCsvPicker file={sampleFile} onPick={pickSample} />
          {COLUMNS.map(columnInput)}
          {sample !== null && ready.success && (
            <SamplePreview
              sample={read}
              mapping={{
                ...ready.data,
                direction: ready.data.direction || undefined,
                account: ready.data.account || undefined,
              }}
            />
          )}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={close}>
              {t('common:cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t('mappings.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
