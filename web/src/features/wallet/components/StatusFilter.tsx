import { Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Status filter of a list; the labels are the spec's ('Succès', 'Échouée', …). */
export function StatusFilter<S extends string>({
  statuses,
  value,
  onChange,
  labels = 'statuses',
}: {
  statuses: readonly S[];
  value: S | undefined;
  onChange: (status: S | undefined) => void;
  labels?: 'statuses' | 'financingStatuses';
}) {
  const { t } = useTranslation('wallet');
  return (
    <Select
      aria-label={t('statusFilter')}
      placeholder={t('allStatuses')}
      clearable
      w={200}
      data={statuses.map((s) => ({ value: s, label: t(`${labels}.${s}`) }))}
      value={value ?? null}
      onChange={(v) => onChange((v ?? undefined) as S | undefined)}
    />
  );
}
