/** What the sandbox widget appends to `returnTo` when the payer is done. */
export interface WidgetResult {
  transactionId: string;
  reference?: string;
  status: string;
}

export const WIDGET_MESSAGE = 'filiere:supply-widget';

/** The page the widget returns to (inside the modal's frame). */
export const WIDGET_RETURN_PATH = '/approvisionnements?widget=1';

/** The widget's address with where to come back. */
export function widgetAddress(url: string, returnTo = WIDGET_RETURN_PATH): string {
  const sep = url.includes('?') ? '&' : '?';
  return `${url}${sep}returnTo=${encodeURIComponent(returnTo)}`;
}

/** A frame's message, if it is a widget result. */
export function readWidgetMessage(data: unknown): WidgetResult | null {
  if (!data || typeof data !== 'object') return null;
  const d = data as Record<string, unknown>;
  if (d.type !== WIDGET_MESSAGE || typeof d.transactionId !== 'string') return null;
  return {
    transactionId: d.transactionId,
    status: typeof d.status === 'string' ? d.status : 'FAILED',
    ...(typeof d.reference === 'string' ? { reference: d.reference } : {}),
  };
}
