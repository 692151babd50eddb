import type { CreatedAt } from '@filiere/platform';
import type { ColumnType, Generated } from 'kysely';
import type { OrganizationType, RoleCode } from '../kernel/roles.js';
import type { SmsStatus } from './sms/sms.js';
import type { TokenKind } from './tokens.js';

/** A nullable `timestamptz`: read as a Date or null. */
type NullableTime = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/**
 * The tables identity's migrations create (migrations/20261121_0300_identity.ts, 0301 nip,
 * 0302 token_version, 20261125_0310 members: nullable e-mail, PIN hash, bank name, SMS outbox). The codes' types (role, organisation type, token kind) are the
 * ones the database's check constraints and seeds hold.
 */
export interface IdentityTables {
  roles: {
    id: number;
    code: RoleCode;
    name: string;
  };
  organizations: {
    id: Generated<string>;
    denomination: string;
    organization_type: OrganizationType;
    ifu: string | null;
    created_at: CreatedAt;
  };
  clusters: {
    id: Generated<string>;
    label: string;
    created_at: CreatedAt;
  };
  users: {
    id: Generated<string>;
    firstname: string;
    lastname: string;
    /** Growers and carriers may have none. */
    email: string | null;
    username: string;
    phone: string | null;
    password_hash: string | null;
    role_id: number;
    organization_id: string | null;
    cluster_id: string | null;
    wallet_id: Generated<string>;
    momo_account_number: string | null;
    bank_account_number: string | null;
    is_active: Generated<boolean>;
    self_registered: Generated<boolean>;
    created_at: CreatedAt;
    updated_at: CreatedAt;
    deleted_at: NullableTime;
    nip: string | null;
    token_version: Generated<number>;
    /** argon2id hash of a grower's 5-digit PIN (members.ts resetPin). */
    pin_hash: string | null;
    bank_name: string | null;
  };
  user_tokens: {
    id: Generated<string>;
    user_id: string;
    kind: TokenKind;
    token_hash: string;
    expires_at: ColumnType<Date, Date | string, Date | string>;
    used_at: NullableTime;
    created_at: CreatedAt;
  };
  /** The mail outbox of the embedded mode (bigserial id, read as a number). */
  outbox: {
    id: Generated<number>;
    recipient: string;
    subject: string;
    text: string;
    html: string;
    created_at: CreatedAt;
  };
  /**
   * The SMS outbox (identity/sms/): every SMS the product sends, and where the gateway's
   * dispatcher (messaging/) has got with it (migration 20261207_0320).
   */
  sms_outbox: {
    id: Generated<number>;
    recipient: string;
    text: string;
    created_at: CreatedAt;
    status: ColumnType<SmsStatus, SmsStatus | undefined, SmsStatus>;
    kind: ColumnType<string, string | undefined, string>;
    dedupe_key: string | null;
    user_id: string | null;
    season_id: number | null;
    attempts: ColumnType<number, number | undefined, number>;
    next_attempt_at: ColumnType<Date, Date | string | undefined, Date | string>;
    locked_until: NullableTime;
    claim_token: string | null;
    uncertain: ColumnType<boolean, boolean | undefined, boolean>;
    attempt_started_at: NullableTime;
    gateway: string | null;
    gateway_id: string | null;
    segments: number | null;
    sent_at: NullableTime;
    delivered_at: NullableTime;
    failed_at: NullableTime;
    failure: string | null;
    updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  };
}
