import type { ColumnType } from 'kysely';

type Time = ColumnType<Date, Date | string, Date | string>;
type DateColumn = ColumnType<Date | string, string, string>;
type Money = ColumnType<string | number, number, number>;

/** The tables of read-model/migrations/20261126_0800_carriage_contracts.ts. */
export interface CarriageTables {
  carriage_contracts: {
    id: string;
    reference: string;
    status: 'CREATED' | 'PAID' | 'CANCELED';
    aggregator_user_id: string;
    carrier_id: string;
    carrier_user_id: string;
    vehicle_id: string;
    car_type: string;
    registration: string;
    transport_date: DateColumn;
    amount: Money;
    description: string | null;
    hold_id: string;
    created_at: Time;
    updated_at: Time;
  };
}
