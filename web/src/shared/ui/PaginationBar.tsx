import { Group, Pagination, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Pages of `perPage` (10 by default) with a 'x–y sur total' summary. */
export function PaginationBar({
  page,
  total,
  perPage = 10,
  onChange,
}: {
  page: number;
  total: number;
  perPage?: number;
  onChange: (page: number) => void;
}) {
  const { t } = useTranslation();
  const pages = Math.max(1, Math.ceil(total / perPage));
  if (total === 0) return null;
  return (
    <Group justify="space-between" mt="md">
      <Text size="sm" c="dark.5">
        {t('range', {
          from: (page - 1) * perPage + 1,
          to: Math.min(page * perPage, total),
          total,
        })}
      </Text>
      <Pagination
        total={pages}
        value={Math.min(page, pages)}
        onChange={onChange}
        aria-label={t('pagination')}
        getControlProps={(control) =>
          control === 'previous'
            ? { 'aria-label': t('previous') }
            : control === 'next'
              ? { 'aria-label': t('next') }
              : {}
        }
        getItemProps={(p) => ({ 'aria-label': t('page', { page: p }) })}
      />
    </Group>
  );
}
