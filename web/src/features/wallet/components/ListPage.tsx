import { Group, Paper } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, type Column } from '../../../shared/ui/DataTable.js';
import { PageTitle } from '../../../shared/ui/PageTitle.js';
import { PaginationBar } from '../../../shared/ui/PaginationBar.js';
import { PAGE_SIZE } from '../model/search.js';
import { ListToolbar } from './ListToolbar.js';
import { StatusFilter } from './StatusFilter.js';

/** The URL state every wallet list shares. */
export interface ListSearch<S extends string> {
  page?: number | undefined;
  q?: string | undefined;
  status?: S | undefined;
}

export interface ListPanelProps<Row extends { id: string | number }, S extends string> {
  search: ListSearch<S>;
  /** A new search or filter goes back to page 1. */
  onSearchChange: (next: ListSearch<S>) => void;
  statuses: readonly S[];
  statusLabels?: 'statuses' | 'financingStatuses';
  columns: Column<Row>[];
  /** The list query's state: one page of rows and the total count. */
  list: { data?: { data: Row[]; count: number } | undefined; isLoading: boolean };
  caption: string;
  /** Above the toolbar (tabs). */
  header?: ReactNode;
  /** Right of the status filter (download button). */
  toolbarExtra?: ReactNode;
}

/** A wallet list: search, status filter, table ('Aucun élément trouvé'), pagination of 10. */
export function ListPanel<Row extends { id: string | number }, S extends string>({
  search,
  onSearchChange,
  statuses,
  statusLabels,
  columns,
  list,
  caption,
  header,
  toolbarExtra,
}: ListPanelProps<Row, S>) {
  const { t } = useTranslation('wallet');
  const page = search.page ?? 1;
  return (
    <Paper withBorder p="md" radius="md">
      {header}
      <ListToolbar
        q={search.q}
        placeholder={t('searchPlaceholder')}
        onSearch={(q) => onSearchChange({ q, page: undefined })}
      >
        <StatusFilter<S>
          statuses={statuses}
          value={search.status}
          {...(statusLabels ? { labels: statusLabels } : {})}
          onChange={(status) => onSearchChange({ status, page: undefined })}
        />
        {toolbarExtra}
      </ListToolbar>
      <DataTable
        columns={columns}
        rows={list.data?.data}
        loading={list.isLoading}
        caption={caption}
      />
      <PaginationBar
        page={page}
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
