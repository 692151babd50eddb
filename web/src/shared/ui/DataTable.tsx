import { Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface Column<T> {
  name: string;
  title: ReactNode;
  /** Cell content; defaults to the row's field `name`. */
  transform?: (row: T) => ReactNode;
  /** The cell's label when rows are stacked (small screens); defaults to a text `title`. */
  label?: string;
}

/** Below this width the rows are stacked: one block per row, one labelled line per cell. */
export const STACK_QUERY = '(max-width: 40em)';

/**
 * A table with the spec's loading ('Chargement en cours ....') and empty texts. On a small
 * screen (390 px) its rows stack: each row a block, each cell a line led by its column's
 * label, so every column (amount, date, status…) stays on screen instead of beyond a
 * horizontal scroll; the header row stays for assistive technology, visually hidden.
 */
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
  // Read on the first render (no server rendering here): the rows never flash in columns on a
  // phone before stacking.
  const stacked =
    useMediaQuery(STACK_QUERY, undefined, { getInitialValueInEffect: false }) ?? false;
  const labelOf = (c: Column<T>) => c.label ?? (typeof c.title === 'string' ? c.title : null);
  const table = (
    <Table
      striped
      highlightOnHover
      verticalSpacing="sm"
      aria-busy={loading}
      className={stacked ? 'stacked-table' : undefined}
      data-stacked={stacked ? 'true' : undefined}
      // Explicit roles while the boxes are blocks: a table's semantics never depend on CSS.
      role={stacked ? 'table' : undefined}
    >
      {caption && <caption className="visually-hidden">{caption}</caption>}
      <Table.Thead className={stacked ? 'visually-hidden' : undefined}>
        <Table.Tr role={stacked ? 'row' : undefined}>
          {columns.map((c) => (
            <Table.Th key={c.name} scope="col" role={stacked ? 'columnheader' : undefined}>
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
            <Table.Tr key={row.id} role={stacked ? 'row' : undefined}>
              {columns.map((c) => {
                const label = stacked ? labelOf(c) : null;
                return (
                  <Table.Td key={c.name} role={stacked ? 'cell' : undefined}>
                    {label && (
                      <span className="stacked-label" aria-hidden>
                        {label}
                      </span>
                    )}
                    <span className={stacked ? 'stacked-value' : undefined}>
                      {c.transform
                        ? c.transform(row)
                        : String((row as Record<string, unknown>)[c.name] ?? '')}
                    </span>
                  </Table.Td>
                );
              })}
            </Table.Tr>
          ))
        )}
      </Table.Tbody>
    </Table>
  );
  if (stacked) return table;
  return (
    // Narrower than 640 px the table scrolls sideways: keyboard users reach the scrolling area
    // itself (axe 'scrollable-region-focusable'), even when no row holds a link or a button.
    <Table.ScrollContainer
      minWidth={640}
      scrollAreaProps={{
        viewportProps: { tabIndex: 0, role: 'region', 'aria-label': caption ?? t('table') },
      }}
    >
      {table}
    </Table.ScrollContainer>
  );
}
