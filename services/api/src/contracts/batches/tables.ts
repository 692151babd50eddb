import type { ColumnType } from 'kysely';

type Time = ColumnType<Date, Date | string, Date | string>;
type DateColumn = ColumnType<string, string, string>;

/** The tables of read-model/migrations/20261126_0700_contract_batches.ts. */
export interface BatchesTables {
  contract_batch_previews: {
    id: string;
    owner_user_id: string;
    source: 'FILE' | 'GROWERS';
    file_name: string | null;
    row_count: number;
    total_kg: number;
    total_amount: number;
    created_at: Time;
    expires_at: Time;
    parent_id: string | null;
  };
  contract_batch_preview_rows: {
    preview_id: string;
    line: number;
    grower_id: string;
    grower_user_id: string;
    plot_id: string;
    product_type: string | null;
    quantity_kg: number;
    amount: number;
    delivery_date: DateColumn;
  };
  contract_parents: {
    id: string;
    reference: string;
    aggregator_user_id: string;
    source: string;
    file_name: string | null;
    sub_count: number;
    total_kg: number;
    total_amount: number;
    created_at: Time;
  };
}
