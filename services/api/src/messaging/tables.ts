import type { ColumnType } from 'kysely';

type Time = ColumnType<Date, Date | string | undefined, Date | string>;

/** Messaging's tables (migrations/, block 20261207_10NN). */
export interface MessagingTables {
  messaging_checkpoints: {
    name: string;
    position: ColumnType<number, number | undefined, number>;
    updated_at: Time;
  };
  grower_sms_opt_outs: {
    user_id: string;
    opted_out: boolean;
    source: 'STAFF' | 'SMS';
    changed_by: string | null;
    changed_at: Time;
  };
}
