import type { ColumnType, Generated } from 'kysely';

type DateColumn = ColumnType<Date | string, string, string>;

/** The tables of migrations/20261207_0900_document_references.ts. */
export interface DocumentsTables {
  document_references: {
    reference: string;
    kind: 'CONTRACT' | 'RECEIPT' | 'STATEMENT';
    subject_key: string;
    subject_id: string;
    period_from: DateColumn | null;
    period_to: DateColumn | null;
    ledger_position: ColumnType<number | null, number | null | undefined, never>;
    ledger_hash: string | null;
    issued_at: Generated<Date>;
  };
}
