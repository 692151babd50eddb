import type { ColumnType } from 'kysely';

/** The tables of read-model/migrations/20261126_0710_contract_advances.ts. */
export interface AdvancesTables {
  grower_debt_recoveries: {
    debt_id: string;
    contract_id: string;
    amount: number;
    recovered_at: ColumnType<Date, Date | string, Date | string>;
  };
}
