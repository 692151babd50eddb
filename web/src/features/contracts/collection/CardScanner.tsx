import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconQrcode } from '@tabler/icons-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppModal } from '../../../shared/ui/AppModal.js';

/**
 * What a grower card's QR code holds (services/api/src/contracts/pdf/card-pdf.ts): his code,
 * `PRD-000123`, alone. Anything else a camera may read (a contract's verification link, a
 * product's barcode) is not a grower.
 */
export function growerCodeOf(text: string): string | null {
  const code = text.trim().toUpperCase();
  return /^PRD-\d{1,9}$/.test(code) ? code : null;
}

/** `navigator.mediaDevices` is undefined on a page that is not secure (http, not localhost). */
const cameraAvailable = () =>
  typeof (navigator.mediaDevices as MediaDevices | undefined)?.getUserMedia === 'function';

type Problem = 'denied' | 'noCamera' | 'insecure' | 'notACard' | 'failed';

/** The browser's reason for not giving the camera, as the agent can act on it. */
function problemOf(error: unknown): Problem {
  const name = error instanceof Error || error instanceof DOMException ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'denied';
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return 'noCamera';
  return 'failed';
}

/**
 * The phone's back camera reading a grower card's QR code (ZXing, loaded only when the agent
 * opens the scanner). The first grower code read closes the scanner and is handed over; the
 * camera is released when the modal closes. Without a camera, or when the browser refuses it,
 * a message says why and the code can still be typed.
 */
function Scanner({ onCode }: { onCode: (code: string) => void }) {
  const { t } = useTranslation('collection');
  const video = useRef<HTMLVideoElement>(null);
  // Browsers give the camera to secure pages only (https or localhost).
  const [problem, setProblem] = useState<Problem | null>(() =>
    cameraAvailable() ? null : 'insecure',
  );
  const [ready, setReady] = useState(false);

  useEffect(() => {
    let stop: (() => void) | undefined;
    let cancelled = false;
    if (!cameraAvailable()) return;
    void (async () => {
      try {
        const { BrowserQRCodeReader } = await import('@zxing/browser');
        if (cancelled || !video.current) return;
        const reader = new BrowserQRCodeReader(undefined, { delayBetweenScanAttempts: 150 });
        const controls = await reader.decodeFromConstraints(
          { video: { facingMode: 'environment' } },
          video.current,
          // The first frame may be read before this call answers: the loop's own controls stop it.
          (result, _error, scanning) => {
            if (!result || cancelled) return;
            const code = growerCodeOf(result.getText());
            if (!code) {
              setProblem('notACard');
              return;
            }
            cancelled = true;
            scanning.stop();
            onCode(code);
          },
        );
        if (cancelled) controls.stop();
        else {
          stop = () => controls.stop();
          setReady(true);
        }
      } catch (error) {
        if (!cancelled) setProblem(problemOf(error));
      }
    })();
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [onCode]);

  const blocking = problem !== null && problem !== 'notACard';
  return (
    <Stack>
      {!blocking && (
        <>
          <video
            ref={video}
            className="card-scanner-video"
            muted
            playsInline
            aria-label={t('scan.video')}
          />
          <Text size="sm" role="status">
            {ready ? t('scan.aim') : t('scan.starting')}
          </Text>
        </>
      )}
      {problem && (
        <Alert color={problem === 'notACard' ? 'yellow' : 'red'} role="alert">
          {t(`scan.${problem}`)}
        </Alert>
      )}
    </Stack>
  );
}

/**
 * 'Scanner la carte': opens the camera in a modal; the code read is handed to `onCode` (keep
 * it stable: a new function restarts the camera).
 */
export function CardScanButton({ onCode }: { onCode: (code: string) => void }) {
  const { t } = useTranslation('collection');
  const [opened, setOpened] = useState(false);
  const read = useCallback(
    (code: string) => {
      setOpened(false);
      onCode(code);
    },
    [onCode],
  );
  return (
    <>
      <Button
        size="lg"
        variant="default"
        fullWidth
        leftSection={<IconQrcode size={20} aria-hidden />}
        onClick={() => setOpened(true)}
      >
        {t('scan.open')}
      </Button>
      <AppModal opened={opened} onClose={() => setOpened(false)} title={t('scan.title')}>
        {opened ? <Scanner onCode={read} /> : null}
      </AppModal>
    </>
  );
}
