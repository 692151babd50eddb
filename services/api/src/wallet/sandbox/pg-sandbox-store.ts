import type { Kysely } from 'kysely';
import type { SandboxStore, SandboxTransaction } from '../providers/sandbox.js';
import type { WalletDb } from '../tables.js';

/** The sandbox provider's transactions, kept in `wallet_sandbox_transactions`. */
export class PgSandboxStore implements SandboxStore {
  constructor(private readonly db: Kysely<WalletDb>) {}

  async save(transaction: SandboxTransaction): Promise<void> {
    await this.db
      .insertInto('wallet_sandbox_transactions')
      .values({
        transaction_id: transaction.transactionId,
        reference: transaction.reference,
        amount: transaction.amount,
        status: transaction.status,
      })
      .onConflict((oc) => oc.column('transaction_id').doUpdateSet({ status: transaction.status }))
      .execute();
  }

  async byReference(reference: string): Promise<SandboxTransaction[]> {
    const rows = await this.db
      .selectFrom('wallet_sandbox_transactions')
      .select(['transaction_id', 'reference', 'amount', 'status'])
      .where('reference', '=', reference)
      .orderBy('created_at')
      .orderBy('transaction_id')
      .execute();
    return rows.map((row) => ({
      transactionId: row.transaction_id as string,
      reference: row.reference as string,
      amount: Number(row.amount),
      status: row.status as SandboxTransaction['status'],
    }));
  }

  async get(transactionId: string): Promise<SandboxTransaction | undefined> {
    const row = await this.db
      .selectFrom('wallet_sandbox_transactions')
      .select(['transaction_id', 'reference', 'amount', 'status'])
      .where('transaction_id', '=', transactionId)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      transactionId: row.transaction_id as string,
      reference: row.reference as string,
      amount: Number(row.amount),
      status: row.status as SandboxTransaction['status'],
    };
  }
}
