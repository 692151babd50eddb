import { Paper, Skeleton, Text } from '@mantine/core';

/**
 * One figure of the dashboard or the reporting board: its label and its value. While the
 * first answer is loading the value is a skeleton (announced busy); the figure's element
 * carries `data-testid="card-<name>"`.
 */
export function StatCard({
  name,
  label,
  value,
  loading,
  hint,
}: {
  name: string;
  label: string;
  value: string | null;
  loading?: boolean;
  hint?: string;
}) {
  const id = `card-label-${name}`;
  return (
    <Paper withBorder p="md" radius="md" role="group" aria-labelledby={id} aria-busy={loading}>
      <Text id={id} size="sm" c="dark.5">
        {label}
      </Text>
      {loading ? (
        <Skeleton h={28} mt={4} w="60%" />
      ) : (
        <Text fz="xl" fw={700} data-testid={`card-${name}`}>
          {value ?? '—'}
        </Text>
      )}
      {hint && (
        <Text size="xs" c="dark.4">
          {hint}
        </Text>
      )}
    </Paper>
  );
}
