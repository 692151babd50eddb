import { SimpleGrid, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** A label and its value, as the season's detail blocks show them. */
export function InfoItem({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text component="div" fw={500}>
        {children}
      </Text>
    </Stack>
  );
}

/** A grid of `InfoItem`s. */
export function InfoGrid({ children }: { children: ReactNode }) {
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="md" verticalSpacing="md">
      {children}
    </SimpleGrid>
  );
}
