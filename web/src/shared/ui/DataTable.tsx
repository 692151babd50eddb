import { Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface Column<T> {
  name: string;
  title: ReactNode;
  /** Cell content; defaults to the row's field `name`. */
  transform?: (row: T) => ReactNode;
}

/** A table with the spec's loading ('Chargement en cours ....') and empty texts. */
export function DataTable<T extends { id: string | number }>({
  columns,
  rows,
  loading,
  caption,
}: {
  columns: Column<T>[];
  rows: T[] | undefined;
  loading?: boolean;
  caption?: string;
}) {
  const { t } = useTranslation();
  const message = loading && !rows?.length ? t('loading') : !rows?.length ? t('empty') : null;
  return (
    // Narrower than 640 px the table scrolls sideways: keyboard users reach the scrolling area
    // itself (axe 'scrollable-region-focusable'), even when no row holds a link or a button.
    <Table.ScrollContainer
      minWidth={640}
      scrollAreaProps={{
        viewportProps: { tabIndex: 0, role: 'region', 'aria-label': caption ?? t('table') },
      }}
    >
      <Table striped highlightOnHover verticalSpacing="sm" aria-busy={loading}>
        {caption && <caption className="visually-hidden">{caption}</caption>}
        <Table.Thead>
          <Table.Tr>
            {columns.map((c) => (
              <Table.Th key={c.name} scope="col">
                {c.title}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {message ? (
            <Table.Tr>
              <Table.Td colSpan={columns.length}>
                <Text ta="center" c="dimmed" py="md">
                  {message}
                </Text>
              </Table.Td>
            </Table.Tr>
          ) : (
            rows!.map((row) => (
              <Table.Tr key={row.id}>
                {columns.map((c) => (
                  <Table.Td key={c.name}>
                    {c.transform
                      ? c.transform(row)
                      : String((row as Record<string, unknown>)[c.name] ?? '')}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))
          )}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
