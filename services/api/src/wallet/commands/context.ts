import type { Kysely } from 'kysely';
import type { CommandPipeline, Idempotency } from '@filiere/event-store';
import type { Logger } from '@filiere/platform';
import type { UserDirectory } from '../../kernel/actor.js';
import type { AcceptedBank, AmountLimits } from '../domain/index.js';
import type { PaymentProvider } from '../providers/port.js';
import type { WalletDb } from '../tables.js';

/** Where background work is handed after a command commits (see jobs/). */
export interface JobScheduler {
  schedulePayout(withdrawalId: string): Promise<void>;
  /**
   * Checks a mobile-money or card supply against its provider in the background until it is
   * final (`transactionId`: the one a widget reported; `now`: check at once).
   */
  scheduleSupplyCheck(
    reference: string,
    options?: { transactionId?: string; now?: boolean },
  ): Promise<void>;
}

/** What the wallet's command services need. */
export interface WalletDeps {
  db: Kysely<WalletDb>;
  pipeline: CommandPipeline;
  /** The configured payment provider; replaceable (tests stub it). */
  provider: PaymentProvider;
  bank: AcceptedBank;
  /** MAX_COMMAND_AMOUNT and MAX_BALANCE, handed to the deciders. */
  limits: AmountLimits;
  jobs: JobScheduler;
  logger: Logger;
  /** Users from the process's directory, for the commands that name their read guards. */
  users: UserDirectory;
}

/** The accepted bank from SUPPLY_BANK_NAME / SUPPLY_BANK_ACCOUNT; its code names its account. */
export function acceptedBank(name: string, accountNumber: string): AcceptedBank {
  const code =
    name
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toUpperCase()
      .replace(/[^A-Z0-9]+/g, '_')
      .replace(/^_|_$/g, '') || 'BANK';
  return { code, name, accountNumber };
}

/**
 * A client's Idempotency-Key scoped by user and command (`<userId>:<command>:<key>`, so keys
 * never collide across users), with the fingerprint of its request; none without a key.
 */
export function scopedKey(
  userId: string,
  command: string,
  key: string | undefined,
  fingerprint: string,
): Idempotency | undefined {
  return key ? { key: `${userId}:${command}:${key}`, fingerprint } : undefined;
}
