import { Button } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** 'Télécharger': runs `onDownload` (skipped when `disabled`, e.g. nothing to export). */
export function DownloadButton({
  onDownload,
  disabled,
}: {
  onDownload: () => Promise<void> | void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  return (
    <Button
      variant="default"
      leftSection={<IconDownload size={16} aria-hidden />}
      loading={busy}
      disabled={disabled}
      onClick={async () => {
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
  );
}
