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

/**
 * What the browser needs to open the provider's payment widget: the sandbox's page `url`,
 * or the provider's checkout `script` (configured, never built into the web app) and what
 * to call it with.
 */
export interface WidgetConfig {
  provider: ProviderName;
  reference: string;
  amount: number;
  script?: string;
  [key: string]: unknown;
}

/** The supply a widget is opened for; `phone` is the payer's mobile money number (E.164). */
export interface WidgetSupply {
  reference: string;
  amount: number;
  phone?: string | null;
}

/** What the caller of `payout` is told while a payout is under way. */
export interface PayoutProgress {
  /**
   * The provider gave the payout its id and no money has moved yet. The caller stores the
   * id durably (the job's payload) so that a retry re-checks this payout with
   * `checkPayout` instead of paying again. A throw here stops before the money moves.
   */
  created(providerId: string): Promise<void>;
}

/**
 * The one port every payment provider adapter implements. Faults are typed:
 * ProviderUnavailableError (timeout, network, 5xx, refused credentials, rate limit) means
 * "unknown, retry later"; a refusal (other 4xx) is a final FAILED result.
 */
export interface PaymentProvider {
  readonly name: ProviderName;
  widgetConfig(supply: WidgetSupply): WidgetConfig;
  /** Asks the provider about a transaction; throws ProviderUnavailableError to retry later. */
  verify(transactionId: string): Promise<ProviderTransaction>;
  /**
   * The provider's transactions carrying one of our supply references (the widget gave it),
   * whatever their status; [] when it knows none. The background check finds with it a payment
   * no page reported. Absent when the provider's API cannot search by our reference (KKiaPay:
   * its status API takes a transaction id only). Throws ProviderUnavailableError to retry.
   */
  paymentsFor?(reference: string): Promise<ProviderTransaction[]>;
  /** Starts a payout; PENDING (with `providerId`) when the provider has not settled it yet. */
  payout(request: PayoutRequest, progress?: PayoutProgress): Promise<PayoutResult>;
  /**
   * Re-checks a payout by the id `payout` reported (PENDING, or an answer that was lost):
   * its current status, sending it only if the provider never started it. Never pays twice.
   */
  checkPayout(providerId: string, request: PayoutRequest): Promise<PayoutResult>;
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
