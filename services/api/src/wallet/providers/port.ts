import { UnavailableError } from '@filiere/platform';

export type ProviderName = 'sandbox' | 'kkiapay' | 'fedapay';
export type ProviderStatus = 'SUCCESS' | 'FAILED' | 'PENDING';

/** The provider's answer about one of its transactions (fed to the `verifySupply` decider). */
export interface ProviderTransaction {
  status: ProviderStatus;
  amount: number;
  reference: string;
  transactionId: string;
}

export interface PayoutRequest {
  reference: string;
  amount: number;
  method: 'MOBILE_MONEY' | 'BANK';
  /** E.164 mobile-money number, or bank account number. */
  destination: string;
}

export interface PayoutResult {
  status: ProviderStatus;
  providerId?: string;
  reason?: string;
}

/** What the browser needs to open the provider's payment widget. */
export interface WidgetConfig {
  provider: ProviderName;
  reference: string;
  amount: number;
  [key: string]: unknown;
}

/** The one port every payment provider adapter implements. */
export interface PaymentProvider {
  readonly name: ProviderName;
  widgetConfig(supply: { reference: string; amount: number }): WidgetConfig;
  /** Asks the provider about a transaction; throws ProviderUnavailableError to retry later. */
  verify(transactionId: string): Promise<ProviderTransaction>;
  payout(request: PayoutRequest): Promise<PayoutResult>;
}

/**
 * 503: the provider did not answer usably (timeout, network, 5xx, malformed answer, our
 * credentials refused). The caller keeps the supply or payout PENDING and retries later;
 * it never turns into a SUCCESS.
 */
export class ProviderUnavailableError extends UnavailableError {
  constructor(provider: ProviderName, detail: string) {
    super('Le fournisseur de paiement ne répond pas, réessayez plus tard', { provider, detail });
  }
}
