import { Button, Group, Popover, Select, Stack } from '@mantine/core';
import { IconFilter } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateField } from './DateField.js';
import { DATE_PRESETS, presetRange, type DatePreset } from '../format/date.js';

export interface FilterValue {
  from?: string;
  to?: string;
  status?: string;
}

/**
 * 'Filtrer': date range with the presets Aujourd'hui … Depuis le début, and an
 * optional status select; 'Appliquer' reports, 'Annuler' closes.
 */
export function DateRangeFilter({
  value,
  onApply,
  statuses,
}: {
  value: FilterValue;
  onApply: (value: FilterValue) => void;
  statuses?: string[];
}) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const [draft, setDraft] = useState<FilterValue>(value);
  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-end" shadow="md" trapFocus>
      <Popover.Target>
        <Button
          variant="default"
          leftSection={<IconFilter size={16} aria-hidden />}
          onClick={() => setOpened((o) => !o)}
        >
          {t('filter')}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs" w={280}>
          <Group gap={4}>
            {DATE_PRESETS.map((preset: DatePreset) => (
              <Button
                key={preset}
                size="compact-xs"
                variant="light"
                onClick={() =>
                  setDraft({
                    ...draft,
                    ...presetRange(preset),
                    ...(preset === 'all' ? { from: undefined, to: undefined } : {}),
                  })
                }
              >
                {t(`presets.${preset}`)}
              </Button>
            ))}
          </Group>
          <DateField
            label={t('from')}
            value={draft.from ?? null}
            onChange={(v) => setDraft({ ...draft, from: v ?? undefined })}
          />
          <DateField
            label={t('to')}
            minDate={draft.from}
            value={draft.to ?? null}
            onChange={(v) => setDraft({ ...draft, to: v ?? undefined })}
          />
          {statuses && (
            <Select
              label={t('status')}
              clearable
              data={statuses.map((s) => ({ value: s, label: t(`statuses.${s}`) }))}
              value={draft.status ?? null}
              onChange={(v) => setDraft({ ...draft, status: v ?? undefined })}
            />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpened(false)}>
              {t('cancel')}
            </Button>
            <Button
              onClick={() => {
                onApply(draft);
                setOpened(false);
              }}
            >
              {t('apply')}
            </Button>
          </Group>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
