/** Shapes the wallet API answers (platform-and-wallet §3, decisions.md), from its schemas. */
import type { ApiQuery, ApiResponse, RowOf } from '../../../shared/api/types.js';

/** IN: the wallet received the money; OUT: it paid. */
export type Direction = NonNullable<ApiQuery<'/api/transaction'>['direction']>;

/** A row of the transaction lists. */
export type Transaction = RowOf<ApiResponse<'/api/transaction'>>;

/** `GET transaction/{id}`: the detail screen's fields, and the row. */
export type TransactionDetail = ApiResponse<'/api/transaction/{id}'>;

/** One side of a payment in the detail: current name, NIP and phone. */
export type DetailParty = TransactionDetail['beneficiary'];

/** A supply as its commands answer it (verify, cancel, validate, reject). */
export type Supply = ApiResponse<'/api/supply/cancel/{reference}', 'post'>;

export type SupplyStats = ApiResponse<'/api/supply/stats/{userId}'>;

/** The payment provider's widget settings (`widget` of a new supply, or 'Réessayer'). */
export type SupplyWidget = ApiResponse<'/api/supply/widget/{reference}'>['widget'];

export type SupplyCreated = ApiResponse<'/api/supply', 'post'>;

/** A row of the financing list; the reference is its id. */
export type Financing = RowOf<ApiResponse<'/api/financement/user/{id}'>> & { id: string };

export type Recipient = RowOf<ApiResponse<'/api/wallet/recipients'>>;

export type Aggregator = RowOf<ApiResponse<'/api/users/industrials'>>;

export function fullName(
  user: { firstname?: string | null; lastname?: string | null } | null | undefined,
): string {
  return [user?.firstname, user?.lastname].filter(Boolean).join(' ');
}
