import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { User } from '../../../shared/auth/user.js';
import { notify } from '../../../shared/ui/notify.js';
import { loadWidgetScript, openProviderWidget } from '../api/payment-widgets.js';
import { paymentProviderQuery } from '../api/supplies.js';
import type { SupplyWidget } from '../model/types.js';
import { readWidgetMessage, widgetAddress } from '../model/widget.js';
import { useWidgetResult } from './use-widget-result.js';

export type PaymentWidgetState = 'idle' | 'waiting' | 'verifying';

export interface PaymentWidget {
  /** The configured provider (`GET supply/payment-provider`), once known. */
  provider: 'sandbox' | 'kkiapay' | 'fedapay' | undefined;
  state: PaymentWidgetState;
  /**
   * Call in the click, before anything is awaited: the sandbox's page opens in a window,
   * which browsers allow only then. The real widgets open in this page later.
   */
  prepare(): void;
  /** Drops what `prepare` opened (the supply could not be created or fetched). */
  abandon(): void;
  /** Opens the widget of a supply: the sandbox's page in the prepared window, or the provider's. */
  show(widget: SupplyWidget): Promise<void>;
}

/**
 * One payment widget for the Approvisionnements screen, shared by 'Nouvel
 * approvisionnement' and each row's 'Réessayer'. Every outcome with a transaction id is
 * verified by the server (success and failure: a refused payment becomes 'Échouée');
 * a widget closed without a transaction leaves the supply INIT. `onSettled` runs once the
 * verification answered (or the widget was closed).
 */
export function usePaymentWidget(me: User | null, onSettled?: () => void): PaymentWidget {
  const { t } = useTranslation('wallet');
  const provider = useQuery({ ...paymentProviderQuery(), enabled: Boolean(me) });
  const [state, setStateValue] = useState<PaymentWidgetState>('idle');
  const stateRef = useRef<PaymentWidgetState>('idle');
  const setState = useCallback((next: PaymentWidgetState) => {
    stateRef.current = next;
    setStateValue(next);
  }, []);
  const popup = useRef<Window | null>(null);
  const watcher = useRef<ReturnType<typeof setInterval> | null>(null);
  const settled = useRef(onSettled);
  useEffect(() => {
    settled.current = onSettled;
  });
  const stopWatching = useCallback(() => {
    if (watcher.current) clearInterval(watcher.current);
    watcher.current = null;
  }, []);
  const finish = useCallback(() => {
    stopWatching();
    setState('idle');
    settled.current?.();
  }, [setState, stopWatching]);
  useEffect(() => stopWatching, [stopWatching]);
  const verify = useWidgetResult(finish);
  const verifyRef = useRef(verify);
  useEffect(() => {
    verifyRef.current = verify;
  });

  // The real widget's script is loaded as soon as the screen opens: the click opens it at once.
  const script = provider.data?.script;
  useEffect(() => {
    if (script) loadWidgetScript(script).catch(() => undefined);
  }, [script]);

  // The sandbox's return page (in the payment window) posts its outcome here.
  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== window.location.origin) return;
      const result = readWidgetMessage(event.data);
      if (!result || verifyRef.current.isPending) return;
      stopWatching();
      setState('verifying');
      verifyRef.current.mutate(result);
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [setState, stopWatching]);

  const prepare = useCallback(() => {
    popup.current =
      provider.data?.provider === 'sandbox' || !provider.data
        ? window.open('about:blank', 'filiere-payment')
        : null;
  }, [provider.data]);

  const abandon = useCallback(() => {
    stopWatching();
    popup.current?.close();
    popup.current = null;
    setState('idle');
  }, [setState, stopWatching]);

  const show = useCallback(
    async (widget: SupplyWidget) => {
      if (widget.provider === 'sandbox' || widget.url) {
        const url = String(widget.url);
        const window_ = popup.current;
        if (window_ && !window_.closed) {
          window_.location.href = widgetAddress(url);
          setState('waiting');
          // The payer closed the window without choosing: the supply waits (INIT). The
          // return page posts its outcome just before it closes itself: give it a moment.
          stopWatching();
          watcher.current = setInterval(() => {
            if (!window_.closed) return;
            stopWatching();
            setTimeout(() => {
              if (stateRef.current !== 'waiting' || popup.current !== window_) return;
              popup.current = null;
              notify('info', t('supplies.widgetClosed'));
              finish();
            }, 1_000);
          }, 500);
        } else {
          // No window could be opened: the widget comes back to this page.
          window.location.assign(widgetAddress(url, '/approvisionnements'));
        }
        return;
      }
      popup.current?.close();
      popup.current = null;
      setState('waiting');
      try {
        await openProviderWidget(
          widget,
          { firstname: me?.firstname, lastname: me?.lastname, email: me?.email ?? undefined },
          (outcome) => {
            if (outcome.kind === 'closed') {
              notify('info', t('supplies.widgetClosed'));
              finish();
              return;
            }
            setState('verifying');
            verifyRef.current.mutate(outcome.result);
          },
        );
      } catch {
        notify('error', t('supplies.widgetUnavailable'));
        finish();
      }
    },
    [me, t, finish, setState, stopWatching],
  );

  return { provider: provider.data?.provider, state, prepare, abandon, show };
}
