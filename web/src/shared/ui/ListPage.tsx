import { Group, Paper } from '@mantine/core';
import type { ReactNode } from 'react';
import { PAGE_SIZE, type ListSearch } from '../search/list-search.js';
import { DataTable, type Column } from './DataTable.js';
import { ListToolbar } from './ListToolbar.js';
import { PageTitle } from './PageTitle.js';
import { PaginationBar } from './PaginationBar.js';
import { StatusFilter } from './StatusFilter.js';

export interface ListPanelProps<Row extends { id: string | number }, S extends string> {
  /** The list's URL state (`shared/search/list-search.ts`). */
  search: ListSearch<S>;
  /** A new search or filter goes back to page 1. */
  onSearchChange: (next: ListSearch<S>) => void;
  searchPlaceholder?: string;
  /** The status filter: the statuses offered and their labels. */
  statuses?: { values: readonly S[]; label: (status: S) => string };
  /** Other filters, right of the status filter (a role…). */
  filters?: ReactNode;
  /** At the right end of the toolbar (download button). */
  actions?: ReactNode;
  columns: Column<Row>[];
  /** The list query's state: one page of rows and the total count. */
  list: { data?: { data: Row[]; count: number } | undefined; isLoading: boolean };
  caption: string;
  /** Above the toolbar (tabs). */
  header?: ReactNode;
}

/** A searchable list: search, filters, table ('Aucun élément trouvé'), pagination of 10. */
export function ListPanel<Row extends { id: string | number }, S extends string>({
  search,
  onSearchChange,
  searchPlaceholder,
  statuses,
  filters,
  actions,
  columns,
  list,
  caption,
  header,
}: ListPanelProps<Row, S>) {
  return (
    <Paper withBorder p="md" radius="md">
      {header}
      <ListToolbar
        q={search.q}
        placeholder={searchPlaceholder}
        onSearch={(q) => onSearchChange({ q, page: undefined })}
      >
        {statuses && (
          <StatusFilter<S>
            statuses={statuses.values}
            label={statuses.label}
            value={search.status}
            onChange={(status) => onSearchChange({ status, page: undefined })}
          />
        )}
        {filters}
        {actions}
      </ListToolbar>
      <DataTable
        columns={columns}
        rows={list.data?.data}
        loading={list.isLoading}
        caption={caption}
      />
      <PaginationBar
        page={search.page ?? 1}
        total={list.data?.count ?? 0}
        perPage={PAGE_SIZE}
        onChange={(p) => onSearchChange({ page: p })}
      />
    </Paper>
  );
}

/**
 * A list screen: the title (with an optional action on its right), then the list panel;
 * `children` holds the screen's modals.
 */
export function ListPage<Row extends { id: string | number }, S extends string>({
  title,
  action,
  children,
  ...panel
}: Omit<ListPanelProps<Row, S>, 'caption'> & {
  title: string;
  action?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <>
      <Group justify="space-between" align="flex-start">
        <PageTitle>{title}</PageTitle>
        {action}
      </Group>
      <ListPanel {...panel} caption={title} />
      {children}
    </>
  );
}
