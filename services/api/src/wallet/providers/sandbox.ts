import { randomUUID } from 'node:crypto';
import type { PaymentProvider, PayoutRequest, PayoutResult, ProviderTransaction } from './port.js';

/** A payment the payer made (or refused) on the sandbox widget page. */
export interface SandboxTransaction {
  transactionId: string;
  reference: string;
  amount: number;
  status: 'SUCCESS' | 'FAILED';
}

/** Where the sandbox keeps its transactions; the integrator backs it with a table. */
export interface SandboxStore {
  save(transaction: SandboxTransaction): Promise<void>;
  get(transactionId: string): Promise<SandboxTransaction | undefined>;
  /** The transactions recorded for a supply reference, oldest first. */
  byReference(reference: string): Promise<SandboxTransaction[]>;
}

export class InMemorySandboxStore implements SandboxStore {
  private readonly transactions = new Map<string, SandboxTransaction>();

  async save(transaction: SandboxTransaction): Promise<void> {
    this.transactions.set(transaction.transactionId, { ...transaction });
  }

  async get(transactionId: string): Promise<SandboxTransaction | undefined> {
    const found = this.transactions.get(transactionId);
    return found && { ...found };
  }

  async byReference(reference: string): Promise<SandboxTransaction[]> {
    return [...this.transactions.values()]
      .filter((t) => t.reference === reference)
      .map((t) => ({ ...t }));
  }
}

/**
 * Payouts to a destination ending in these digits fail (for tests and demo data), e.g.
 * `+2290197000000` or bank account `BJ…0000`. Every other payout succeeds at once.
 */
export const SANDBOX_FAILING_DESTINATION_SUFFIX = '0000';

/** Records the payer's choice on the sandbox widget page; returns the new transaction. */
export async function recordSandboxPayment(
  store: SandboxStore,
  payment: { reference: string; amount: number; outcome: 'SUCCESS' | 'FAILED' },
): Promise<SandboxTransaction> {
  const transaction: SandboxTransaction = {
    transactionId: `sbx_${randomUUID()}`,
    reference: payment.reference,
    amount: payment.amount,
    status: payment.outcome,
  };
  await store.save(transaction);
  return transaction;
}

export function createSandboxProvider(options: {
  store: SandboxStore;
  publicUrl: string;
}): PaymentProvider {
  const base = options.publicUrl.replace(/\/+$/, '');
  return {
    name: 'sandbox',
    widgetConfig: ({ reference, amount }) => ({
      provider: 'sandbox',
      reference,
      amount,
      sandbox: true,
      url: `${base}/api/sandbox/pay/${encodeURIComponent(reference)}`,
    }),
    async verify(transactionId: string): Promise<ProviderTransaction> {
      const found = await options.store.get(transactionId);
      if (!found) return { status: 'FAILED', amount: 0, reference: '', transactionId };
      return { ...found };
    },
    async paymentsFor(reference: string): Promise<ProviderTransaction[]> {
      return (await options.store.byReference(reference)).map((t) => ({ ...t }));
    },
    async payout(request: PayoutRequest): Promise<PayoutResult> {
      return sandboxPayout(request, `sbx_payout_${randomUUID()}`);
    },
    // Sandbox payouts settle at once and are decided by the destination alone.
    async checkPayout(providerId: string, request: PayoutRequest): Promise<PayoutResult> {
      return sandboxPayout(request, providerId);
    },
  };
}

function sandboxPayout(request: PayoutRequest, providerId: string): PayoutResult {
  if (request.destination.trim().endsWith(SANDBOX_FAILING_DESTINATION_SUFFIX)) {
    return { status: 'FAILED', reason: 'Destination refusée par le bac à sable' };
  }
  return { status: 'SUCCESS', providerId };
}
