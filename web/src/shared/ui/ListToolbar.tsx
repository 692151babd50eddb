import { Group } from '@mantine/core';
import type { ReactNode } from 'react';
import { SearchInput } from './SearchInput.js';

/** Search box on the left, filters and actions on the right. */
export function ListToolbar({
  q,
  onSearch,
  placeholder,
  children,
}: {
  q: string | undefined;
  onSearch: (q: string | undefined) => void;
  placeholder?: string;
  children?: ReactNode;
}) {
  return (
    <Group mb="md" align="flex-end" justify="space-between">
      <div style={{ flex: 1, maxWidth: 360 }}>
        <SearchInput
          value={q ?? ''}
          placeholder={placeholder}
          onSearch={(text) => onSearch(text || undefined)}
        />
      </div>
      <Group gap="sm">{children}</Group>
    </Group>
  );
}
