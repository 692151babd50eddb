import type { PushMessage } from '@filiere/projections';

/**
 * Every push type the wallet publishes: its projectors' (read-model/), the supply rejection
 * and settled withdrawal toasts, and the background exports' progress (export/). The module
 * declares this list (index.ts) and the web's typed table (web/src/shared/realtime/
 * invalidations.ts) must name exactly the declared types (its test checks it).
 */
export const WALLET_PUSHES = [
  'wallet.updated',
  'transactions.updated',
  'supplies.updated',
  'financing.updated',
  'reporting.updated',
  'supply.rejected',
  'withdrawal.settled',
  'export.progress',
  'export.ready',
  'export.failed',
] as const;

export type WalletPushType = (typeof WALLET_PUSHES)[number];

/** A push of the wallet: publishing a type the module does not declare is a compile error. */
export type WalletPush = PushMessage & { type: WalletPushType };

/** Checks a push's type against the declaration (`ctx.push(walletPush({ type, userIds }))`). */
export const walletPush = (msg: WalletPush): PushMessage => msg;
