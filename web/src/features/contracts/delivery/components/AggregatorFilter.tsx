import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { aggregatorsQuery } from '../../../wallet/api/financing.js';

/**
 * The super admin's and admin's aggregator filter (`GET users/industrials?q=`): with one
 * picked, the list is that aggregator's smart contracts, searchable by reference and grower.
 */
export function AggregatorFilter({
  value,
  onChange,
}: {
  value: string | undefined;
  onChange: (aggregator: string | undefined) => void;
}) {
  const { t } = useTranslation('contracts');
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search, 300);
  const [label, setLabel] = useState<string | null>(null);
  const options = useQuery(aggregatorsQuery(label !== null && q === label ? '' : q.trim()));
  const data = (options.data ?? []).map((a) => ({
    value: a.id,
    label: `${a.firstname} ${a.lastname}${a.organization?.denomination ? ` (${a.organization.denomination})` : ''}`,
  }));
  if (value && !data.some((o) => o.value === value)) {
    data.unshift({ value, label: label ?? t('aggregatorSelected') });
  }
  return (
    <Select
      aria-label={t('aggregatorFilter')}
      placeholder={t('aggregatorFilter')}
      searchable
      clearable
      w={260}
      filter={({ options: all }) => all}
      nothingFoundMessage={t('common:empty')}
      data={data}
      value={value ?? null}
      searchValue={search}
      onSearchChange={setSearch}
      onChange={(id, option) => {
        setLabel(option?.label ?? null);
        onChange(id ?? undefined);
      }}
    />
  );
}
