import type { Config } from '@filiere/platform';
import { createFedapayProvider } from './fedapay.js';
import type { HttpOptions } from './http.js';
import { createKkiapayProvider } from './kkiapay.js';
import type { PaymentProvider } from './port.js';
import { createSandboxProvider, type SandboxStore } from './sandbox.js';

type ProviderConfig = Pick<
  Config,
  | 'PAYMENT_PROVIDER'
  | 'PUBLIC_URL'
  | 'KKIAPAY_BASE_URL'
  | 'KKIAPAY_PUBLIC_KEY'
  | 'KKIAPAY_PRIVATE_KEY'
  | 'KKIAPAY_SECRET_KEY'
  | 'FEDAPAY_BASE_URL'
  | 'FEDAPAY_PUBLIC_KEY'
  | 'FEDAPAY_SECRET_KEY'
>;

/** The configured payment provider (PAYMENT_PROVIDER: sandbox by default, kkiapay, fedapay). */
export function createPaymentProvider(
  config: ProviderConfig,
  deps: { sandboxStore: SandboxStore } & HttpOptions,
): PaymentProvider {
  const http: HttpOptions = { timeoutMs: deps.timeoutMs, fetch: deps.fetch };
  switch (config.PAYMENT_PROVIDER) {
    case 'kkiapay':
      return createKkiapayProvider({
        ...http,
        baseUrl: config.KKIAPAY_BASE_URL,
        publicKey: required(config.KKIAPAY_PUBLIC_KEY, 'KKIAPAY_PUBLIC_KEY'),
        privateKey: required(config.KKIAPAY_PRIVATE_KEY, 'KKIAPAY_PRIVATE_KEY'),
        secretKey: required(config.KKIAPAY_SECRET_KEY, 'KKIAPAY_SECRET_KEY'),
      });
    case 'fedapay':
      return createFedapayProvider({
        ...http,
        baseUrl: config.FEDAPAY_BASE_URL,
        publicKey: required(config.FEDAPAY_PUBLIC_KEY, 'FEDAPAY_PUBLIC_KEY'),
        secretKey: required(config.FEDAPAY_SECRET_KEY, 'FEDAPAY_SECRET_KEY'),
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
