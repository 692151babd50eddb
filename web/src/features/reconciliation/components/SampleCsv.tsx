import { Alert, FileInput, Stack, Table, Text } from '@mantine/core';
import { parse } from 'csv-parse/browser/esm/sync';
import { useTranslation } from 'react-i18next';
import { readBankCsvRow, type BankCsvMapping } from '@filiere/api/reconciliation/bank-csv-row';
import { formatMoney } from '../../../shared/format/money.js';

/** The rows a preview shows. */
const PREVIEW_ROWS = 3;
/** The start of a sample read: its header and first rows fit well within it. */
const SAMPLE_BYTES = 64 * 1024;

export interface SampleRows {
  header: string[];
  /** The first rows, by header name. */
  rows: Record<string, string>[];
}

/** The header and first rows of a sample file, read as the API reads it; null if unreadable. */
export function readSample(
  text: string,
  delimiter: BankCsvMapping['delimiter'],
): SampleRows | null {
  try {
    const rows = parse(text, {
      delimiter,
      bom: true,
      trim: true,
      skip_empty_lines: true,
      relax_column_count: true,
      to_line: PREVIEW_ROWS + 1,
    }) as string[][];
    const [header, ...data] = rows;
    if (!header || header.length === 0) return null;
    return {
      header,
      rows: data.map((cells) => Object.fromEntries(header.map((h, i) => [h, cells[i] ?? '']))),
    };
  } catch {
    return null;
  }
}

/** Reads the start of a file picked for a sample: nothing is uploaded. */
export const sampleText = (file: File) => file.slice(0, SAMPLE_BYTES).text();

export function SampleCsvPicker({
  file,
  onPick,
}: {
  file: File | null;
  onPick: (file: File | null) => void;
}) {
  const { t } = useTranslation('reconciliation');
  return (
    <FileInput
      label={t('mappings.sample.file')}
      description={t('mappings.sample.help')}
      placeholder={t('import.choose')}
      accept=".csv,.txt,text/csv,text/plain"
      clearable
      clearButtonProps={{ 'aria-label': t('mappings.sample.clear') }}
      value={file}
      onChange={onPick}
    />
  );
}

/** The sample's first rows as the mapping being written reads them (or why it cannot). */
export function SamplePreview({
  sample,
  mapping,
}: {
  sample: SampleRows | null;
  mapping: BankCsvMapping;
}) {
  const { t } = useTranslation('reconciliation');
  if (!sample) {
    return (
      <Alert color="red" variant="light" role="status">
        <Text size="sm" c="red.9">
          {t('mappings.sample.unreadable')}
        </Text>
      </Alert>
    );
  }
  const missing = (['date', 'amount', 'direction', 'reference', 'label', 'account'] as const)
    .map((field) => mapping[field])
    .filter((name): name is string => !!name && !sample.header.includes(name));
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600}>
        {t('mappings.sample.preview', { count: sample.rows.length })}
      </Text>
      {missing.length > 0 && (
        <Text size="sm" c="red.9" role="status">
          {t('mappings.sample.missing', { list: missing.join(', ') })}
        </Text>
      )}
      <Table.ScrollContainer
        minWidth={520}
        scrollAreaProps={{
          viewportProps: {
            tabIndex: 0,
            role: 'region',
            'aria-label': t('mappings.sample.caption'),
          },
        }}
      >
        <Table striped withTableBorder fz="sm">
          <Table.Caption>{t('mappings.sample.caption')}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('mappings.sample.row')}</Table.Th>
              <Table.Th>{t('mappings.sample.date')}</Table.Th>
              <Table.Th>{t('mappings.sample.amount')}</Table.Th>
              <Table.Th>{t('mappings.sample.direction')}</Table.Th>
              <Table.Th>{t('mappings.sample.bankReference')}</Table.Th>
              <Table.Th>{t('mappings.sample.ourReference')}</Table.Th>
              <Table.Th>{t('mappings.sample.account')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {sample.rows.map((row, i) => {
              const read = readBankCsvRow(row, mapping);
              return (
                <Table.Tr key={i}>
                  <Table.Td>{i + 2}</Table.Td>
                  {'error' in read ? (
                    <Table.Td colSpan={6} c="red.9">
                      {t(`mappings.sample.errors.${ERROR_KEYS[read.error]}`)}
                    </Table.Td>
                  ) : (
                    <>
                      <Table.Td>
                        {new Date(read.line.occurredAt).toLocaleDateString('fr-FR', {
                          timeZone: 'Africa/Porto-Novo',
                        })}
                      </Table.Td>
                      <Table.Td>{formatMoney(read.line.amount)}</Table.Td>
                      <Table.Td>{t(`mappings.sample.${read.line.direction}`)}</Table.Td>
                      <Table.Td>{read.line.providerReference}</Table.Td>
                      <Table.Td>{read.line.reference ?? '—'}</Table.Td>
                      <Table.Td>{read.line.account ?? '—'}</Table.Td>
                    </>
                  )}
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}

const ERROR_KEYS = {
  'montant illisible': 'amount',
  'date illisible': 'date',
  'référence manquante': 'reference',
} as const;
