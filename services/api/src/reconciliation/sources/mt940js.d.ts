/** The part of mt940js (which ships no types) that the MT940 import reads. */
declare module 'mt940js' {
  export interface Mt940Transaction {
    /** Value date (UTC midnight). */
    date: Date;
    /** Entry (booking) date, in the value date's year; '' when the line has none. */
    entryDate: Date | '';
    /** Signed: credit positive, debit negative; a reversal changes the sign. */
    amount: number;
    isReversal: boolean;
    currency: string;
    /** The :86: narrative, lines joined by '\n'. */
    details: string;
    transactionType: string;
    /** The customer reference (may be NONREF). */
    reference: string;
    /** The bank reference after `//`, '' when absent. */
    bankReference: string;
    extraDetails: string;
  }
  export interface Mt940Statement {
    transactionReference: string;
    accountIdentification: string;
    number: { statement: string; sequence?: string; section?: string };
    currency: string;
    openingBalance: number;
    closingBalance: number;
    transactions: Mt940Transaction[];
  }
  export class Parser {
    constructor(options?: { no86Structure?: boolean });
    parse(data: string, withTags?: boolean): Mt940Statement[];
  }
}
