import { Anchor, Button, Popover, Progress, Stack, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { percentOf, reportDownloadProgress, useDownloadProgress } from './download-progress.js';

/**
 * 'Télécharger': runs `onDownload` (skipped when `disabled`, e.g. nothing to export). When
 * the file is prepared in the background, a panel under the button shows the progress
 * ('Préparation du fichier… 42 %'), then a link to the file, or the failure.
 */
export function DownloadButton({
  onDownload,
  disabled,
}: {
  onDownload: () => Promise<void> | void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [open, setOpen] = useState(false);
  const progress = useDownloadProgress();
  return (
    <Popover
      opened={open && progress.state !== 'idle'}
      onChange={setOpen}
      position="bottom-end"
      width={300}
      withArrow
      shadow="md"
    >
      <Popover.Target>
        <Button
          variant="default"
          leftSection={<IconDownload size={16} aria-hidden />}
          loading={busy}
          disabled={disabled}
          onClick={async () => {
            reportDownloadProgress({ state: 'idle' });
            setOpen(true);
            setBusy(true);
            try {
              await onDownload();
            } finally {
              setBusy(false);
            }
          }}
        >
          {t('download')}
        </Button>
      </Popover.Target>
      <Popover.Dropdown data-testid="download-progress">
        {progress.state === 'preparing' && (
          <Stack gap="xs" role="status" aria-live="polite">
            <Text size="sm">
              {t('export.preparing', { percent: percentOf(progress.done, progress.total) })}
            </Text>
            <Progress
              value={percentOf(progress.done, progress.total)}
              aria-label={t('export.progressLabel')}
              animated
            />
          </Stack>
        )}
        {progress.state === 'ready' && (
          <Stack gap="xs" role="status">
            <Text size="sm">{t('export.ready')}</Text>
            <Anchor href={progress.href} download={progress.fileName} size="sm">
              {t('export.link')}
            </Anchor>
          </Stack>
        )}
        {progress.state === 'failed' && (
          <Text size="sm" c="red.8" role="alert">
            {t('export.failed')}
          </Text>
        )}
      </Popover.Dropdown>
    </Popover>
  );
}
