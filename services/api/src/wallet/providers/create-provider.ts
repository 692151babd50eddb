import type { Config } from '@filiere/platform';
import { createFedapayProvider } from './fedapay.js';
import type { HttpOptions } from './http.js';
import { createKkiapayProvider } from './kkiapay.js';
import type { PaymentProvider } from './port.js';
import { createSandboxProvider, type SandboxStore } from './sandbox.js';

type ProviderConfig = Pick<
  Config,
  | 'NODE_ENV'
  | 'PAYMENT_PROVIDER'
  | 'PAYOUT_PROVIDER'
  | 'PUBLIC_URL'
  | 'KKIAPAY_BASE_URL'
  | 'KKIAPAY_PUBLIC_KEY'
  | 'KKIAPAY_PRIVATE_KEY'
  | 'KKIAPAY_SECRET_KEY'
  | 'FEDAPAY_BASE_URL'
  | 'FEDAPAY_PUBLIC_KEY'
  | 'FEDAPAY_SECRET_KEY'
> &
  Partial<Pick<Config, 'KKIAPAY_WIDGET_SCRIPT_URL' | 'FEDAPAY_CHECKOUT_SCRIPT_URL'>>;

type Deps = { sandboxStore: SandboxStore } & HttpOptions;

/**
 * The configured payment provider: PAYMENT_PROVIDER (sandbox by default, kkiapay, fedapay)
 * takes payments in; withdrawals are paid out by PAYOUT_PROVIDER when it names another one
 * (required with KKiaPay, which has no payout API).
 */
export function createPaymentProvider(config: ProviderConfig, deps: Deps): PaymentProvider {
  const collector = build(config.PAYMENT_PROVIDER, config, deps);
  const payoutName = config.PAYOUT_PROVIDER ?? config.PAYMENT_PROVIDER;
  if (payoutName === 'kkiapay') {
    throw new Error('PAYOUT_PROVIDER is required when PAYMENT_PROVIDER=kkiapay');
  }
  // A sandbox payout "succeeds" without paying anyone. parseConfig refuses it in production;
  // this refuses it for a configuration built by hand too.
  if (payoutName === 'sandbox' && config.NODE_ENV === 'production') {
    throw new Error('PAYOUT_PROVIDER must not be sandbox when NODE_ENV=production');
  }
  if (payoutName === config.PAYMENT_PROVIDER) return collector;
  return routePayouts(collector, build(payoutName, config, deps));
}

/** Payments in (widget, verification) by `collector`; payouts and their checks by `payer`. */
export function routePayouts(collector: PaymentProvider, payer: PaymentProvider): PaymentProvider {
  return {
    name: collector.name,
    widgetConfig: (supply) => collector.widgetConfig(supply),
    verify: (transactionId) => collector.verify(transactionId),
    ...(collector.paymentsFor
      ? { paymentsFor: (reference: string) => collector.paymentsFor!(reference) }
      : {}),
    payout: (request, progress) => payer.payout(request, progress),
    checkPayout: (providerId, request) => payer.checkPayout(providerId, request),
  };
}

function build(
  name: ProviderConfig['PAYMENT_PROVIDER'],
  config: ProviderConfig,
  deps: Deps,
): PaymentProvider {
  const http: HttpOptions = { timeoutMs: deps.timeoutMs, dispatcher: deps.dispatcher };
  switch (name) {
    case 'kkiapay':
      return createKkiapayProvider({
        ...http,
        baseUrl: config.KKIAPAY_BASE_URL,
        publicKey: required(config.KKIAPAY_PUBLIC_KEY, 'KKIAPAY_PUBLIC_KEY'),
        privateKey: required(config.KKIAPAY_PRIVATE_KEY, 'KKIAPAY_PRIVATE_KEY'),
        secretKey: required(config.KKIAPAY_SECRET_KEY, 'KKIAPAY_SECRET_KEY'),
        ...(config.KKIAPAY_WIDGET_SCRIPT_URL
          ? { widgetScriptUrl: config.KKIAPAY_WIDGET_SCRIPT_URL }
          : {}),
      });
    case 'fedapay':
      return createFedapayProvider({
        ...http,
        baseUrl: config.FEDAPAY_BASE_URL,
        publicKey: required(config.FEDAPAY_PUBLIC_KEY, 'FEDAPAY_PUBLIC_KEY'),
        secretKey: required(config.FEDAPAY_SECRET_KEY, 'FEDAPAY_SECRET_KEY'),
        ...(config.FEDAPAY_CHECKOUT_SCRIPT_URL
          ? { checkoutScriptUrl: config.FEDAPAY_CHECKOUT_SCRIPT_URL }
          : {}),
      });
    default:
      return createSandboxProvider({ store: deps.sandboxStore, publicUrl: config.PUBLIC_URL });
  }
}

function required(value: string | undefined, name: string): string {
  // parseConfig already refuses a missing key for the chosen provider; this guards callers
  // that build a config by hand.
  if (!value) throw new Error(`${name} is required for this PAYMENT_PROVIDER`);
  return value;
}
