import { Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Status filter of a list ('Tous les statuts' when none); `label` names each status. */
export function StatusFilter<S extends string>({
  statuses,
  value,
  onChange,
  label,
}: {
  statuses: readonly S[];
  value: S | undefined;
  onChange: (status: S | undefined) => void;
  label: (status: S) => string;
}) {
  const { t } = useTranslation();
  return (
    <Select
      aria-label={t('statusFilter')}
      placeholder={t('allStatuses')}
      clearable
      w={200}
      data={statuses.map((s) => ({ value: s, label: label(s) }))}
      value={value ?? null}
      onChange={(v) => onChange((v ?? undefined) as S | undefined)}
    />
  );
}
