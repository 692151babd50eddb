import { Alert, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { FileProblem } from '../api/batches.js';

/** The refused file's problems: line, column, reason (every one of them). */
export function ProblemsTable({ message, problems }: { message: string; problems: FileProblem[] }) {
  const { t } = useTranslation('contractBatches');
  return (
    <Alert color="red" title={message} mt="md" role="alert" data-testid="file-problems">
      <Text size="sm" mb="xs">
        {t('problems.count', { count: problems.length })}
      </Text>
      <Table striped withTableBorder fz="sm" bg="white" aria-label={t('problems.caption')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('problems.line')}</Table.Th>
            <Table.Th scope="col">{t('problems.column')}</Table.Th>
            <Table.Th scope="col">{t('problems.reason')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {problems.map((p, i) => (
            <Table.Tr key={`${p.line}-${p.column}-${i}`}>
              <Table.Td>{p.line === 0 ? t('problems.wholeFile') : p.line}</Table.Td>
              <Table.Td>{p.column}</Table.Td>
              <Table.Td>{p.reason}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Alert>
  );
}
