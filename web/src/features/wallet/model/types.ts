/** Shapes the wallet API answers (platform-and-wallet §3, decisions.md). */
export type OperationType = 'DEBIT' | 'TRANSFER' | 'REFUND' | 'STANDARD' | 'SUPPLY';

export interface PartyUser {
  id?: string;
  firstname?: string | null;
  lastname?: string | null;
  phone?: string | null;
  nip?: string | null;
  npi?: string | null;
}

/** IN: the wallet received the money; OUT: it paid. */
export type Direction = 'IN' | 'OUT';

export interface Transaction {
  id: string;
  reference: string;
  operationType: OperationType | string;
  direction?: Direction | string;
  amount: number;
  createdAt: string;
  status: string;
  reason?: string | null;
  paymentMethod?: string | null;
  source?: { user?: PartyUser | null } | null;
  /** `payout`: a withdrawal's mobile-money number or bank account. */
  destination?: { user?: PartyUser | null; payout?: string | null } | null;
}

/** One side of a payment in the detail: current name, NIP and phone. */
export interface DetailParty {
  name: string | null;
  nip: string | null;
  phone: string | null;
}

/** `GET transaction/{id}`: the detail screen's fields, and the row. */
export interface TransactionDetail {
  id: string;
  reference: string;
  amount: number;
  date: string;
  operationType: string;
  direction?: Direction | string;
  status: string;
  /** MOBILE_MONEY, CARD, BANK, or WALLET (wallet to wallet). */
  paymentMeans: string | null;
  reason: string | null;
  /** Who paid: the other user of an incoming payment. */
  sender?: DetailParty | null;
  /** Who received: the other user of an outgoing payment. */
  beneficiary: DetailParty;
  /** Where a withdrawal (or its refund) was paid out. */
  payoutAccount?: string | null;
  transaction?: Transaction;
}

export interface Supply {
  /** The API lists supplies by reference; the screens use it as the row id. */
  id: string;
  reference: string;
  paymentMethod: 'MOBILE_MONEY' | 'BANK' | 'CARD' | string;
  amount: number;
  createdAt: string;
  status: string;
  bank?: string | null;
  bankAccountNumber?: string | null;
}

export interface SupplyStats {
  availableBalance: number;
  lastSupplyAmount: number | null;
  supplies: number;
}

export interface SupplyWidget {
  provider: string;
  reference: string;
  amount: number;
  sandbox?: boolean;
  url?: string;
  [key: string]: unknown;
}

export interface SupplyCreated {
  id?: string;
  reference: string;
  bankAccountNumber?: { accountNumber: string; bankName?: string } | null;
  widget?: SupplyWidget | null;
}

export interface Financing {
  id: string;
  direction?: 'SENT' | 'RECEIVED';
  reference: string;
  amount: number;
  status: string;
  createdAt: string;
  aggregator?: { firstname?: string | null; lastname?: string | null } | null;
}

export interface Recipient {
  id: string;
  firstname: string;
  lastname: string;
  phone?: string | null;
  email?: string | null;
}

export interface Aggregator {
  id: string;
  firstname: string;
  lastname: string;
  organization?: { denomination?: string | null } | null;
}

export function fullName(user: PartyUser | null | undefined): string {
  return [user?.firstname, user?.lastname].filter(Boolean).join(' ');
}
