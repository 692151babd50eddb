import { z } from 'zod';

/**
 * What the wallet's commands answer, as their routes declare it (the OpenAPI document, and
 * the web's generated types, read them). Fastify serializes an answer with its schema and
 * drops what the schema does not name: a field a command adds must be added here too.
 */

const paymentMethod = z.enum(['MOBILE_MONEY', 'CARD', 'BANK']);
const supplyStatus = z.enum(['INIT', 'PENDING', 'SUCCESS', 'FAILED']);

/** A wallet-to-wallet movement: its reference, and the payer's balances after it. */
const movement = {
  reference: z.string(),
  amount: z.number().int(),
  balance: z.number().int().describe('The payer’s balance after the movement'),
  availableBalance: z.number().int().describe('The payer’s available balance after it'),
};

export const transferAnswer = z.object({
  ...movement,
  operationType: z.literal('TRANSFER'),
  status: z.literal('SUCCESS'),
  reason: z.string(),
  source: z.object({ walletId: z.string(), userId: z.string() }),
  destination: z.object({
    walletId: z.string(),
    userId: z.string(),
    firstname: z.string(),
    lastname: z.string(),
  }),
});

export const withdrawalAnswer = z.object({
  withdrawalId: z.string(),
  reference: z.string(),
  status: z.enum(['PENDING', 'SUCCESS', 'FAILED']),
  amount: z.number().int(),
  operationType: z.literal('DEBIT'),
  paiementMethod: z.enum(['MOBILE_MONEY', 'BANK']),
  destination: z.string().describe('The mobile-money number or bank account paid'),
});

export const financingAnswer = z.object({
  ...movement,
  operationType: z.literal('STANDARD'),
  status: z.literal('SUCCESS'),
  aggregator: z.object({
    id: z.string(),
    firstname: z.string(),
    lastname: z.string(),
    walletId: z.string(),
  }),
});

/**
 * The payment provider's widget settings, given to its script as they are: the provider,
 * reference and amount always; the rest depends on the provider (sandbox: `url`; KKiaPay:
 * `key`, `data`…; FedaPay: `publicKey`, `transaction`…), kept whole.
 */
export const widgetConfig = z.looseObject({
  provider: z.enum(['sandbox', 'kkiapay', 'fedapay']),
  reference: z.string(),
  amount: z.number().int(),
  script: z.string().optional().describe('The provider’s checkout script'),
  sandbox: z.boolean().optional(),
  url: z.string().optional().describe('The sandbox’s payment page'),
});

export const supplyCreated = z.object({
  reference: z.string(),
  status: z.literal('INIT'),
  amount: z.number().int(),
  paymentMethod,
  bankAccountNumber: z
    .object({ accountNumber: z.string(), bankName: z.string() })
    .nullable()
    .describe('The account to transfer to (bank supplies)'),
  widget: widgetConfig.nullable().describe('The payment widget (mobile-money and card supplies)'),
});

/** A supply after a command on it; `credited` once its amount is in the wallet. */
export const supplySummary = z.object({
  reference: z.string(),
  status: supplyStatus,
  amount: z.number().int(),
  paymentMethod,
  walletId: z.string(),
  credited: z.boolean(),
});

export const supplyWidgetAnswer = z.object({
  reference: z.string(),
  status: supplyStatus,
  widget: widgetConfig,
});
