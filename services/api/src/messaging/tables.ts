import type { ColumnType } from 'kysely';

/** Messaging's tables (migrations/, block 20261207_10NN). */
export interface MessagingTables {
  messaging_checkpoints: {
    name: string;
    position: ColumnType<number, number | undefined, number>;
    updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  };
}
