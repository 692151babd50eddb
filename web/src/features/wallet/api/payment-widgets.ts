import type { SupplyWidget } from '../model/types.js';
import type { WidgetResult } from '../model/widget.js';

/**
 * The real payment widgets, driven as their providers document them. The script comes from
 * the API (`GET supply/payment-provider`, and the supply's `widget.script`): KKIAPAY_WIDGET_SCRIPT_URL
 * or FEDAPAY_CHECKOUT_SCRIPT_URL, never an address built into this bundle.
 *
 * - KKiaPay (k.js): `openKkiapayWidget({amount, key, sandbox, phone, data, partnerId, reason})`,
 *   `addSuccessListener(({transactionId}) => …)`, `addFailedListener((error) => …)`;
 *   `removeKkiapayListener(event)` drops the previous supply's listeners.
 * - FedaPay (Checkout.js): `FedaPay.init({public_key, environment, transaction, customer,
 *   currency, onComplete}).open()`; `onComplete({reason, transaction})` with
 *   `reason` `FedaPay.CHECKOUT_COMPLETED` or `FedaPay.DIALOG_DISMISSED`.
 *
 * Whatever the widget says, the server decides: a transaction id is always verified
 * (`GET supply/verify/{id}`), success or failure; without one (closed before paying) the
 * supply stays INIT, for 'Réessayer' or 'Annuler'.
 */
export type WidgetOutcome = { kind: 'result'; result: WidgetResult } | { kind: 'closed' };

/** The payer as the widget may prefill it (FedaPay's customer). */
export interface WidgetPayer {
  firstname?: string;
  lastname?: string;
  email?: string;
}

interface KkiapayApi {
  openKkiapayWidget(options: Record<string, unknown>): void;
  addSuccessListener(listener: (response: { transactionId?: unknown }) => void): void;
  addFailedListener(listener: (response: { transactionId?: unknown } | undefined) => void): void;
  addKkiapayCloseListener?(listener: () => void): void;
  removeKkiapayListener?(event: string): void;
}

interface FedapayCheckout {
  open(): void;
}

interface FedapayApi {
  CHECKOUT_COMPLETED?: string;
  DIALOG_DISMISSED?: string;
  init(options: Record<string, unknown>): FedapayCheckout;
}

const scripts = new Map<string, Promise<void>>();

/** Loads a script once; a failed load is forgotten so that the next attempt tries again. */
export function loadWidgetScript(src: string): Promise<void> {
  const known = scripts.get(src);
  if (known) return known;
  const loading = new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => {
      script.remove();
      scripts.delete(src);
      reject(new Error(`payment widget script not loaded: ${src}`));
    };
    document.head.appendChild(script);
  });
  scripts.set(src, loading);
  return loading;
}

const idOf = (value: unknown): string | null =>
  typeof value === 'string' && value !== ''
    ? value
    : typeof value === 'number' && Number.isFinite(value)
      ? String(value)
      : null;

async function openKkiapay(
  widget: SupplyWidget,
  onOutcome: (outcome: WidgetOutcome) => void,
): Promise<void> {
  await loadWidgetScript(String(widget.script));
  const kkiapay = window as unknown as Partial<KkiapayApi>;
  if (typeof kkiapay.openKkiapayWidget !== 'function') {
    throw new Error('openKkiapayWidget is missing from the KKiaPay script');
  }
  // Listeners stay registered in k.js: the previous supply's ones must not hear this one.
  for (const event of ['success', 'failed', 'close']) kkiapay.removeKkiapayListener?.(event);
  let settled = false;
  const result = (transactionId: string, status: 'SUCCESS' | 'FAILED') => {
    if (settled) return;
    settled = true;
    onOutcome({ kind: 'result', result: { transactionId, status, reference: widget.reference } });
  };
  kkiapay.addSuccessListener?.((response) => {
    const id = idOf(response?.transactionId);
    if (id) result(id, 'SUCCESS');
  });
  kkiapay.addFailedListener?.((response) => {
    const id = idOf(response?.transactionId);
    if (id) result(id, 'FAILED');
    else if (!settled) onOutcome({ kind: 'closed' });
  });
  kkiapay.addKkiapayCloseListener?.(() => {
    if (!settled) onOutcome({ kind: 'closed' });
  });
  kkiapay.openKkiapayWidget({
    amount: widget.amount,
    key: widget.key,
    sandbox: widget.sandbox === true,
    data: widget.data ?? widget.reference,
    partnerId: widget.partnerId ?? widget.reference,
    ...(widget.reason ? { reason: widget.reason } : {}),
    ...(widget.phone ? { phone: widget.phone } : {}),
    position: 'center',
  });
}

async function openFedapay(
  widget: SupplyWidget,
  payer: WidgetPayer,
  onOutcome: (outcome: WidgetOutcome) => void,
): Promise<void> {
  await loadWidgetScript(String(widget.script));
  const fedapay = (window as unknown as { FedaPay?: FedapayApi }).FedaPay;
  if (!fedapay || typeof fedapay.init !== 'function') {
    throw new Error('FedaPay.init is missing from the FedaPay Checkout script');
  }
  const customer = {
    ...(payer.firstname ? { firstname: payer.firstname } : {}),
    ...(payer.lastname ? { lastname: payer.lastname } : {}),
    ...(payer.email ? { email: payer.email } : {}),
    ...((widget.customer as Record<string, unknown> | undefined) ?? {}),
  };
  const checkout = fedapay.init({
    public_key: widget.publicKey,
    ...(widget.environment ? { environment: widget.environment } : {}),
    transaction: widget.transaction,
    customer,
    currency: { iso: 'XOF' },
    onComplete(response: { reason?: unknown; transaction?: { id?: unknown; status?: unknown } }) {
      const id = idOf(response?.transaction?.id);
      // A transaction the payer left (declined, pending…) is verified as well: the server
      // asks FedaPay and keeps a pending one under background checks.
      if (id) {
        const approved = String(response.transaction?.status ?? '').toLowerCase() === 'approved';
        onOutcome({
          kind: 'result',
          result: {
            transactionId: id,
            status: approved ? 'SUCCESS' : 'FAILED',
            reference: widget.reference,
          },
        });
      } else {
        onOutcome({ kind: 'closed' });
      }
    },
  });
  checkout.open();
}

/**
 * Opens the provider's widget of a supply (KKiaPay or FedaPay) in this page. Rejects when
 * the script cannot be loaded or does not offer the documented API.
 */
export function openProviderWidget(
  widget: SupplyWidget,
  payer: WidgetPayer,
  onOutcome: (outcome: WidgetOutcome) => void,
): Promise<void> {
  switch (widget.provider) {
    case 'kkiapay':
      return openKkiapay(widget, onOutcome);
    case 'fedapay':
      return openFedapay(widget, payer, onOutcome);
    default:
      return Promise.reject(new Error(`no in-page widget for ${widget.provider}`));
  }
}
