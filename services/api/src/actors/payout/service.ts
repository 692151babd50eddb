import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { AppError } from '@filiere/platform';
import {
  ConflictError,
  ForbiddenError,
  narrowDb,
  NotFoundError,
  ValidationError,
  type Logger,
} from '@filiere/platform';
import {
  identityUsers,
  maskNumber,
  payoutApprovedSms,
  payoutRejectedSms,
  payoutRequestedSms,
  type IdentityTables,
  type Members,
  type SmsSender,
} from '../../identity/index.js';
import type { SignedInUser } from '../../kernel/actor.js';
import type { ProductTables } from '../../kernel/tables.js';
import {
  checkProposal,
  describeAccount,
  mayDecide,
  mayRequest,
  numbersToTell,
  PAYOUT_MESSAGES,
  type PayoutAccount,
  type RequestStatus,
  type Staff,
  type Verdict,
} from './domain/payout-request.js';
import type { PayoutTables } from './tables.js';

type Db = PayoutTables & IdentityTables;

export interface PersonRef {
  id: string;
  firstname: string;
  lastname: string;
}

export interface PayoutRequestDto {
  id: string;
  status: RequestStatus;
  member: PersonRef & { phone: string | null; role: string };
  /** The account when the request was made (payments still go there until approval). */
  current: PayoutAccount;
  proposed: PayoutAccount;
  comment: string | null;
  requestedBy: PersonRef;
  requestedAt: string;
  decidedBy: PersonRef | null;
  decidedAt: string | null;
  rejectionReason: string | null;
}

export interface RequestBody extends PayoutAccount {
  userId: string;
  comment?: string | null;
}

export interface ListQuery {
  page: number;
  limit: number;
  q?: string;
  status?: RequestStatus;
}

const staffOf = (user: SignedInUser): Staff => ({
  id: user.id,
  role: user.role_code,
  clusterId: user.cluster_id,
});

/** A refusal of the rules as the HTTP error the routes answer. */
function fail(verdict: Verdict): AppError | undefined {
  if (verdict.allowed) return undefined;
  const data = { reason: verdict.reason };
  if (verdict.status === 400) {
    return new ValidationError(verdict.message, {
      ...data,
      fields: {
        [verdict.reason === 'BANK_INCOMPLETE' ? 'bankAccountNumber' : 'momoAccountNumber']:
          verdict.message,
      },
    });
  }
  if (verdict.status === 409) return new ConflictError(verdict.message, data);
  return new ForbiddenError(verdict.message, data);
}

function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The one-pending-request index (migration 0650). */
function isSecondPending(error: unknown): boolean {
  const e = error as { code?: string; constraint?: string };
  return e?.code === '23505' && e.constraint === 'payout_requests_one_pending';
}

/**
 * Four-eyes changes of members' payout accounts: requests by staff in reach, approval or
 * rejection by a super admin who did not ask (domain/payout-request.ts). The account itself
 * changes only through identity (`members.changePayout`), in the same transaction as the
 * request's new status; every step is an event of the member's `user-<id>` stream.
 */
export class PayoutRequestsService {
  private readonly db: Kysely<Db>;

  constructor(
    db: Kysely<ProductTables>,
    private readonly members: Members,
    private readonly sms: SmsSender,
    private readonly logger: Logger,
  ) {
    this.db = narrowDb<Db>()(db);
  }

  private async memberRow(userId: string) {
    return this.db
      .selectFrom(identityUsers().as('u'))
      .innerJoin('roles as r', 'r.id', 'u.role_id')
      .select(['u.id', 'r.code as role', 'u.cluster_id', 'u.phone'])
      .where('u.id', '=', userId)
      .where('u.deleted_at', 'is', null)
      .executeTakeFirst();
  }

  /** The member, when `actor` may see it (404 unknown, 403 out of reach or not a member). */
  private async reachable(actor: SignedInUser, userId: string) {
    const member = await this.memberRow(userId);
    if (!member) throw new NotFoundError(PAYOUT_MESSAGES.memberNotFound);
    const denied = fail(
      mayRequest(staffOf(actor), {
        id: member.id,
        role: member.role,
        clusterId: member.cluster_id,
      }),
    );
    if (denied) throw denied;
    return member;
  }

  async request(actor: SignedInUser, body: RequestBody): Promise<PayoutRequestDto> {
    await this.reachable(actor, body.userId);
    const view = await this.members.member(body.userId);
    if (!view) throw new NotFoundError(PAYOUT_MESSAGES.memberNotFound);
    const current: PayoutAccount = {
      momoAccountNumber: view.momoAccountNumber,
      bankName: view.bankName,
      bankAccountNumber: view.bankAccountNumber,
    };
    const proposed: PayoutAccount = {
      momoAccountNumber: body.momoAccountNumber,
      bankName: body.bankName,
      bankAccountNumber: body.bankAccountNumber,
    };
    const invalid = fail(checkProposal(current, proposed));
    if (invalid) throw invalid;
    const id = randomUUID();
    try {
      await this.members.payoutRequested(
        body.userId,
        { requestId: id, ...proposed },
        actor.id,
        async (trx) => {
          const db = narrowDb<Db>()<ProductTables>(trx);
          const pending = await db
            .selectFrom('payout_requests')
            .select('id')
            .where('user_id', '=', body.userId)
            .where('status', '=', 'PENDING')
            .executeTakeFirst();
          if (pending) {
            throw new ConflictError(PAYOUT_MESSAGES.pending, { reason: 'PENDING_REQUEST' });
          }
          await db
            .insertInto('payout_requests')
            .values({
              id,
              user_id: body.userId,
              old_momo_account_number: current.momoAccountNumber,
              old_bank_name: current.bankName,
              old_bank_account_number: current.bankAccountNumber,
              momo_account_number: proposed.momoAccountNumber,
              bank_name: proposed.bankName,
              bank_account_number: proposed.bankAccountNumber,
              comment: body.comment ?? null,
              requested_by: actor.id,
            })
            .execute();
        },
      );
    } catch (error) {
      if (isSecondPending(error)) {
        throw new ConflictError(PAYOUT_MESSAGES.pending, { reason: 'PENDING_REQUEST' });
      }
      throw error;
    }
    await this.tell(
      numbersToTell(current.momoAccountNumber, view.phone, proposed.momoAccountNumber),
      payoutRequestedSms(describeAccount(proposed, maskNumber)),
    );
    return this.get(id);
  }

  private async pendingFor(actor: SignedInUser, id: string) {
    const row = await this.db
      .selectFrom('payout_requests')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw new NotFoundError(PAYOUT_MESSAGES.notFound);
    const denied = fail(
      mayDecide(staffOf(actor), { status: row.status, requestedBy: row.requested_by }),
    );
    if (denied) throw denied;
    return row;
  }

  /** Marks the request decided, if still pending (a concurrent decision makes it 409). */
  private static async decide(
    trx: Kysely<Db>,
    id: string,
    values: { status: 'APPROVED' | 'REJECTED'; decided_by: string; rejection_reason?: string },
  ): Promise<void> {
    const updated = await trx
      .updateTable('payout_requests')
      .set({ ...values, decided_at: sql`now()` })
      .where('id', '=', id)
      .where('status', '=', 'PENDING')
      .returning('id')
      .executeTakeFirst();
    if (!updated) throw new ConflictError(PAYOUT_MESSAGES.decided, { reason: 'DECIDED' });
  }

  async approve(actor: SignedInUser, id: string): Promise<PayoutRequestDto> {
    const row = await this.pendingFor(actor, id);
    const proposed: PayoutAccount = {
      momoAccountNumber: row.momo_account_number,
      bankName: row.bank_name,
      bankAccountNumber: row.bank_account_number,
    };
    await this.members.changePayout(
      row.user_id,
      proposed,
      { requestId: id, requestedBy: row.requested_by, approvedBy: actor.id },
      (trx) =>
        PayoutRequestsService.decide(narrowDb<Db>()<ProductTables>(trx), id, {
          status: 'APPROVED',
          decided_by: actor.id,
        }),
    );
    const member = await this.memberRow(row.user_id);
    await this.tell(
      numbersToTell(row.old_momo_account_number, member?.phone ?? null, row.momo_account_number),
      payoutApprovedSms(describeAccount(proposed, maskNumber)),
    );
    return this.get(id);
  }

  async reject(actor: SignedInUser, id: string, reason: string): Promise<PayoutRequestDto> {
    const row = await this.pendingFor(actor, id);
    await this.members.payoutRejected(row.user_id, { requestId: id, reason }, actor.id, (trx) =>
      PayoutRequestsService.decide(narrowDb<Db>()<ProductTables>(trx), id, {
        status: 'REJECTED',
        decided_by: actor.id,
        rejection_reason: reason,
      }),
    );
    const member = await this.memberRow(row.user_id);
    await this.tell(
      numbersToTell(row.old_momo_account_number, member?.phone ?? null, null),
      payoutRejectedSms(),
    );
    return this.get(id);
  }

  /** The SMS of a step: a failure is logged, the step stands (its events are the record). */
  private async tell(numbers: string[], text: string): Promise<void> {
    for (const to of numbers) {
      try {
        await this.sms.send({ to, text, kind: 'payout-notice' });
      } catch (error) {
        this.logger.error({ err: error, to }, 'payout request sms not sent');
      }
    }
  }

  private query() {
    return this.db
      .selectFrom('payout_requests as p')
      .innerJoin(identityUsers().as('m'), 'm.id', 'p.user_id')
      .innerJoin('roles as r', 'r.id', 'm.role_id')
      .innerJoin(identityUsers().as('rq'), 'rq.id', 'p.requested_by')
      .leftJoin(identityUsers().as('dc'), 'dc.id', 'p.decided_by')
      .select([
        'p.id',
        'p.status',
        'p.user_id',
        'm.firstname as member_firstname',
        'm.lastname as member_lastname',
        'm.phone as member_phone',
        'r.code as member_role',
        'p.old_momo_account_number',
        'p.old_bank_name',
        'p.old_bank_account_number',
        'p.momo_account_number',
        'p.bank_name',
        'p.bank_account_number',
        'p.comment',
        'p.requested_by',
        'rq.firstname as requester_firstname',
        'rq.lastname as requester_lastname',
        'p.requested_at',
        'p.decided_by',
        'dc.firstname as decider_firstname',
        'dc.lastname as decider_lastname',
        'p.decided_at',
        'p.rejection_reason',
      ]);
  }

  private static toDto(
    row: Awaited<ReturnType<ReturnType<PayoutRequestsService['query']>['executeTakeFirstOrThrow']>>,
  ): PayoutRequestDto {
    return {
      id: row.id,
      status: row.status,
      member: {
        id: row.user_id,
        firstname: row.member_firstname,
        lastname: row.member_lastname,
        phone: row.member_phone,
        role: row.member_role,
      },
      current: {
        momoAccountNumber: row.old_momo_account_number,
        bankName: row.old_bank_name,
        bankAccountNumber: row.old_bank_account_number,
      },
      proposed: {
        momoAccountNumber: row.momo_account_number,
        bankName: row.bank_name,
        bankAccountNumber: row.bank_account_number,
      },
      comment: row.comment,
      requestedBy: {
        id: row.requested_by,
        firstname: row.requester_firstname,
        lastname: row.requester_lastname,
      },
      requestedAt: row.requested_at.toISOString(),
      decidedBy:
        row.decided_by && row.decider_firstname !== null && row.decider_lastname !== null
          ? { id: row.decided_by, firstname: row.decider_firstname, lastname: row.decider_lastname }
          : null,
      decidedAt: row.decided_at ? row.decided_at.toISOString() : null,
      rejectionReason: row.rejection_reason,
    };
  }

  async get(id: string): Promise<PayoutRequestDto> {
    const row = await this.query().where('p.id', '=', id).executeTakeFirst();
    if (!row) throw new NotFoundError(PAYOUT_MESSAGES.notFound);
    return PayoutRequestsService.toDto(row);
  }

  /**
   * The super admin's list: every request (pending ones first) or those of one status,
   * searchable on the member and the requester, paginated.
   */
  async list(query: ListQuery): Promise<{ data: PayoutRequestDto[]; count: number }> {
    let base = this.query();
    if (query.status) base = base.where('p.status', '=', query.status);
    if (query.q) {
      const pattern = likePattern(query.q);
      base = base.where((eb) =>
        eb.or([
          eb('m.firstname', 'ilike', pattern),
          eb('m.lastname', 'ilike', pattern),
          eb(sql`concat(m.firstname, ' ', m.lastname)`, 'ilike', pattern),
          eb(sql`concat(m.lastname, ' ', m.firstname)`, 'ilike', pattern),
          eb(sql`coalesce(m.phone, '')`, 'ilike', pattern),
          eb('rq.firstname', 'ilike', pattern),
          eb('rq.lastname', 'ilike', pattern),
        ]),
      );
    }
    return this.page(base, query);
  }

  /** A member's requests, newest first, for staff who may see it. */
  async history(
    actor: SignedInUser,
    userId: string,
    query: ListQuery,
  ): Promise<{ data: PayoutRequestDto[]; count: number }> {
    await this.reachable(actor, userId);
    return this.page(this.query().where('p.user_id', '=', userId), query);
  }

  private async page(
    base: ReturnType<PayoutRequestsService['query']>,
    query: ListQuery,
  ): Promise<{ data: PayoutRequestDto[]; count: number }> {
    const counted = await base
      .clearSelect()
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .executeTakeFirstOrThrow();
    let rows = base
      .orderBy(sql`(p.status = 'PENDING')`, 'desc')
      .orderBy('p.requested_at', 'desc')
      .orderBy('p.id');
    if (query.limit !== -1) rows = rows.limit(query.limit).offset((query.page - 1) * query.limit);
    return {
      data: (await rows.execute()).map((row) => PayoutRequestsService.toDto(row)),
      count: Number(counted.count),
    };
  }
}
