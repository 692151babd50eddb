import { Stack, Text } from '@mantine/core';
import { fullName } from '../model/types.js';
import type { SupplyRow } from '../model/supply-row.js';

/** Who asked for a supply: the name, and the organisation under it when there is one. */
export function SupplyRequester({ supply }: { supply: Pick<SupplyRow, 'user'> }) {
  if (!supply.user) return <>—</>;
  return (
    <Stack gap={0}>
      <Text size="sm">{fullName(supply.user)}</Text>
      {supply.user.organization && (
        <Text size="xs" c="dark.5">
          {supply.user.organization}
        </Text>
      )}
    </Stack>
  );
}
