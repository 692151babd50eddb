import type { CreatedAt } from '@filiere/platform';
import type { ColumnType, Generated } from 'kysely';

type NullableTime = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** The tables the payout area's migrations create (migrations/20261125_0650_payout_requests.ts). */
export interface PayoutTables {
  /**
   * Four-eyes requests to change a member's payout account: the account as it was when asked
   * (`old_…`), the one asked for, who asked, and the super admin's decision.
   */
  payout_requests: {
    id: Generated<string>;
    user_id: string;
    status: Generated<'PENDING' | 'APPROVED' | 'REJECTED'>;
    old_momo_account_number: string | null;
    old_bank_name: string | null;
    old_bank_account_number: string | null;
    momo_account_number: string | null;
    bank_name: string | null;
    bank_account_number: string | null;
    comment: string | null;
    requested_by: string;
    requested_at: CreatedAt;
    decided_by: string | null;
    decided_at: NullableTime;
    rejection_reason: string | null;
  };
}
