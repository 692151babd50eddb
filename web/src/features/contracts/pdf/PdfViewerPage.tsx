import { Alert, Anchor, Button, Center, Group, Loader, Stack, Text } from '@mantine/core';
import { IconArrowLeft, IconDownload } from '@tabler/icons-react';
import type { PDFDocumentProxy, PDFDocumentLoadingTask } from 'pdfjs-dist';
// The worker is bundled by Vite as a file of the app's own origin (CSP worker-src 'self').
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../../shared/ui/PageTitle.js';
import { isPdfLink, isReceiptLink } from './api.js';
import { isCardLink } from './GrowerCard.js';
import { isStatementLink } from './statement.js';

/**
 * pdf.js, loaded when a PDF is opened: it is large, and its module touches browser-only
 * globals (DOMMatrix) when imported, so the route tree must not import it eagerly.
 */
async function loadPdfJs() {
  const pdfjs = await import('pdfjs-dist');
  pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;
  return pdfjs;
}

/** Off-screen but read by assistive technology (Mantine's VisuallyHidden styles). */
const VISUALLY_HIDDEN: Partial<CSSStyleDeclaration> = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  padding: '0',
  margin: '-1px',
  overflow: 'hidden',
  clip: 'rect(0, 0, 0, 0)',
  whiteSpace: 'pre-wrap',
  border: '0',
};

type ViewerState =
  { kind: 'loading' } | { kind: 'ready'; pages: number } | { kind: 'error'; message: string };

/**
 * pdfViewer (/pdf/viewer/{link}): the PDF at `link` (already URL-decoded by the router) drawn
 * page by page on canvases with pdf.js, a 'Retour' button (history back) and a download link.
 * Only the API's signed PDF links are opened (isPdfLink).
 */
export function PdfViewerPage({ link }: { link: string }) {
  const { t } = useTranslation('contracts');
  const container = useRef<HTMLDivElement>(null);
  const valid = isPdfLink(link);
  const [state, setState] = useState<ViewerState>(
    valid ? { kind: 'loading' } : { kind: 'error', message: t('pdf.invalidLink') },
  );

  useEffect(() => {
    if (!valid) return;
    let cancelled = false;
    let pdf: PDFDocumentProxy | null = null;
    let task: PDFDocumentLoadingTask | null = null;
    (async () => {
      try {
        const { getDocument } = await loadPdfJs();
        if (cancelled) return;
        task = getDocument({ url: link, isEvalSupported: false });
        pdf = await task.promise;
        const target = container.current;
        if (cancelled || !target) return;
        target.replaceChildren();
        const width = Math.min(target.clientWidth || 800, 1000);
        for (let n = 1; n <= pdf.numPages; n += 1) {
          const page = await pdf.getPage(n);
          if (cancelled) return;
          const base = page.getViewport({ scale: 1 });
          const ratio = window.devicePixelRatio || 1;
          const viewport = page.getViewport({ scale: (width / base.width) * ratio });
          const canvas = document.createElement('canvas');
          canvas.width = Math.floor(viewport.width);
          canvas.height = Math.floor(viewport.height);
          canvas.style.width = `${Math.floor(viewport.width / ratio)}px`;
          canvas.style.maxWidth = '100%';
          canvas.style.boxShadow = '0 1px 4px rgba(0,0,0,0.2)';
          canvas.setAttribute('role', 'img');
          canvas.setAttribute('aria-label', t('pdf.page', { page: n, pages: pdf.numPages }));
          target.appendChild(canvas);
          await page.render({ canvas, viewport }).promise;
          // The page's text for screen readers (and find-in-page), visually hidden: the
          // canvas alone would leave the PDF's words out of the accessibility tree.
          const content = await page.getTextContent();
          if (cancelled) return;
          const text = document.createElement('div');
          text.className = 'pdf-page-text';
          Object.assign(text.style, VISUALLY_HIDDEN);
          text.textContent = content.items
            .map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : ' ') : ''))
            .join('');
          target.appendChild(text);
        }
        if (!cancelled) setState({ kind: 'ready', pages: pdf.numPages });
      } catch (error) {
        if (cancelled) return;
        const status = (error as { status?: number }).status;
        setState({
          kind: 'error',
          message: status === 403 ? t('pdf.expired') : t('pdf.loadError'),
        });
      }
    })();
    return () => {
      cancelled = true;
      void task?.destroy();
      void pdf?.destroy();
    };
  }, [link, valid, t]);

  return (
    <>
      <PageTitle>
        {isStatementLink(link)
          ? t('statement.pdfTitle')
          : isReceiptLink(link)
            ? t('pdf.receiptTitle')
            : isCardLink(link)
              ? t('card.pdfTitle')
              : t('pdf.title')}
      </PageTitle>
      <Group mb="md" gap="sm">
        <Button
          variant="default"
          leftSection={<IconArrowLeft size={16} aria-hidden />}
          onClick={() => window.history.back()}
        >
          {t('pdf.back')}
        </Button>
        {valid && state.kind !== 'error' ? (
          <Anchor href={link} download>
            <Group gap={4}>
              <IconDownload size={16} aria-hidden />
              {t('pdf.download')}
            </Group>
          </Anchor>
        ) : null}
      </Group>
      {state.kind === 'loading' ? (
        <Center py="xl">
          <Stack align="center" gap="xs" role="status">
            <Loader size="md" aria-hidden />
            <Text>{t('pdf.loading')}</Text>
          </Stack>
        </Center>
      ) : null}
      {state.kind === 'error' ? (
        <Alert color="red" role="alert" title={t('pdf.errorTitle')}>
          {state.message}
        </Alert>
      ) : null}
      <Stack ref={container} align="center" gap="md" aria-live="polite" />
    </>
  );
}
