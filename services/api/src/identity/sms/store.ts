import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Selectable, type UpdateObject } from 'kysely';
import { narrowDb } from '@filiere/platform';
import type { IdentityTables } from '../tables.js';
import type { SmsStatus } from './sms.js';

type OutboxDb = Pick<IdentityTables, 'sms_outbox'>;

export type SmsRow = Selectable<IdentityTables['sms_outbox']>;

/** A message the dispatcher holds: its row as the claim left it and the claim's token. */
export interface ClaimedSms {
  id: number;
  token: string;
  recipient: string;
  text: string;
  attempts: number;
  /** The previous attempt may have reached the gateway: ask it before sending again. */
  uncertain: boolean;
  attemptStartedAt: Date;
  gateway: string | null;
  gatewayId: string | null;
}

/** What a delivery report says of a message. */
export interface SmsReport {
  gateway: string;
  gatewayId: string;
  /** The outbox id the gateway was given back (the status callback's reference), if any. */
  reference?: number;
  status: 'sent' | 'delivered' | 'failed';
  failure?: string;
  segments?: number;
}

/**
 * The outbox's states, written by the one dispatcher (messaging/) and read by the admin. Every
 * write after a claim names the claim's token: a dispatcher whose lease ran out and whose
 * message another one claimed writes nothing (it answers false).
 */
export class SmsOutboxStore {
  private readonly db: Kysely<IdentityTables>;

  static of<DB extends IdentityTables>(db: Kysely<DB>): SmsOutboxStore {
    return new SmsOutboxStore(narrowDb<IdentityTables>()(db));
  }

  constructor(db: Kysely<IdentityTables>) {
    this.db = db;
  }

  /**
   * Claims up to `limit` messages that are due: queued ones whose next attempt has come, and
   * ones left `sending` by a dispatcher whose lease ran out (it may have sent them: they are
   * claimed `uncertain`). `FOR UPDATE SKIP LOCKED`: concurrent dispatchers take different ones.
   */
  async claim(limit: number, leaseMs: number): Promise<ClaimedSms[]> {
    const token = randomUUID();
    const rows = await sql<SmsRow>`
      update sms_outbox o set
        status = 'sending',
        attempts = o.attempts + 1,
        uncertain = o.uncertain or o.status = 'sending',
        attempt_started_at = case when o.status = 'sending' or o.uncertain
          then coalesce(o.attempt_started_at, now()) else now() end,
        locked_until = now() + ${`${Math.round(leaseMs)} milliseconds`}::interval,
        claim_token = ${token},
        updated_at = now()
      where o.id in (
        select id from sms_outbox
        where (status = 'queued' and next_attempt_at <= now())
           or (status = 'sending' and locked_until < now())
        order by next_attempt_at, id
        limit ${limit}
        for update skip locked)
      returning o.*`.execute(this.db);
    return rows.rows.map((row) => ({
      id: row.id,
      token,
      recipient: row.recipient,
      text: row.text,
      attempts: row.attempts,
      uncertain: row.uncertain,
      attemptStartedAt: row.attempt_started_at ?? new Date(),
      gateway: row.gateway,
      gatewayId: row.gateway_id,
    }));
  }

  private async write(
    claim: ClaimedSms,
    set: UpdateObject<OutboxDb, 'sms_outbox'>,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('sms_outbox')
      .set({ ...set, locked_until: null, claim_token: null, updated_at: sql`now()` })
      .where('id', '=', claim.id)
      .where('claim_token', '=', claim.token)
      .where('status', '=', 'sending')
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** The gateway took it: its id is what the delivery reports will name. */
  sent(claim: ClaimedSms, gateway: string, gatewayId: string, segments?: number) {
    return this.write(claim, {
      status: 'sent',
      gateway,
      gateway_id: gatewayId,
      segments: segments ?? null,
      uncertain: false,
      sent_at: sql`now()`,
    });
  }

  /** Tried again after `delayMs`; `uncertain` when this attempt may have reached the gateway. */
  retry(claim: ClaimedSms, delayMs: number, reason: string, uncertain: boolean) {
    return this.write(claim, {
      status: 'queued',
      next_attempt_at: sql`now() + ${`${Math.round(delayMs)} milliseconds`}::interval`,
      uncertain: claim.uncertain || uncertain,
      failure: reason,
    });
  }

  /** Given up: the reason is what the admin reads. */
  failed(claim: ClaimedSms, reason: string) {
    return this.write(claim, { status: 'failed', failure: reason, failed_at: sql`now()` });
  }

  /**
   * Applies a delivery report. Found by the gateway's id, or by the reference the gateway was
   * given when the dispatcher had not yet recorded that id (it stopped between the gateway's
   * answer and its write): the report then records the id, so the message is never sent again.
   * States only move forward (a late `sent` after `delivered` changes nothing); a `failed`
   * report after `delivered` is ignored. Answers whether a message was found.
   */
  async report(report: SmsReport): Promise<boolean> {
    const rank = sql`case status when 'queued' then 0 when 'sending' then 0 when 'sent' then 1
      when 'delivered' then 2 when 'failed' then 2 end`;
    const target: Record<SmsReport['status'], number> = { sent: 1, delivered: 2, failed: 2 };
    const found = await this.db
      .selectFrom('sms_outbox')
      .select(['id', 'status', 'gateway_id'])
      .where((eb) =>
        eb.or([
          eb.and([eb('gateway', '=', report.gateway), eb('gateway_id', '=', report.gatewayId)]),
          ...(report.reference !== undefined
            ? [eb.and([eb('id', '=', report.reference), eb('gateway_id', 'is', null)])]
            : []),
        ]),
      )
      .executeTakeFirst();
    if (!found) return false;
    await this.db
      .updateTable('sms_outbox')
      .set({
        status: report.status,
        gateway: report.gateway,
        gateway_id: report.gatewayId,
        ...(report.segments ? { segments: report.segments } : {}),
        ...(report.status === 'delivered' ? { delivered_at: sql`now()` } : {}),
        ...(report.status === 'failed'
          ? { failed_at: sql`now()`, failure: report.failure ?? null }
          : {}),
        ...(report.status === 'sent' ? { sent_at: sql`coalesce(sent_at, now())` } : {}),
        uncertain: false,
        locked_until: null,
        claim_token: null,
        updated_at: sql`now()`,
      })
      .where('id', '=', found.id)
      .where(sql<boolean>`${rank} < ${target[report.status]}`)
      .execute();
    return true;
  }

  /**
   * The admin's list, newest first: searched by number, recipient's name, kind or reason,
   * filtered by status and by kind. A code's text (PIN, delivery code, contract code) is never returned:
   * it is the grower's secret.
   */
  async list(query: {
    page: number;
    limit: number;
    q?: string;
    status?: SmsStatus;
    kind?: string;
  }) {
    const base = this.db
      .selectFrom('sms_outbox as s')
      .leftJoin('users as u', 'u.id', 's.user_id')
      .$if(query.status !== undefined, (qb) => qb.where('s.status', '=', query.status!))
      .$if(query.kind !== undefined, (qb) => qb.where('s.kind', '=', query.kind!))
      .$if(Boolean(query.q), (qb) => {
        const like = `%${query.q!.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        return qb.where((eb) =>
          eb.or([
            eb('s.recipient', 'ilike', like),
            eb('s.kind', 'ilike', like),
            eb('s.failure', 'ilike', like),
            eb(
              sql<string>`coalesce(u.firstname, '') || ' ' || coalesce(u.lastname, '')`,
              'ilike',
              like,
            ),
          ]),
        );
      });
    const [rows, total] = await Promise.all([
      base
        .select([
          's.id',
          's.recipient',
          's.kind',
          's.status',
          's.failure',
          's.attempts',
          's.segments',
          's.season_id',
          's.user_id',
          's.created_at',
          's.sent_at',
          's.delivered_at',
          's.failed_at',
          sql<string | null>`case when s.kind in ('pin', 'request-code', 'contract-offer')
            then null else s.text end`.as('text'),
          sql<
            string | null
          >`nullif(trim(coalesce(u.firstname, '') || ' ' || coalesce(u.lastname, '')), '')`.as(
            'user_name',
          ),
        ])
        .orderBy('s.id', 'desc')
        .$if(query.limit > 0, (qb) => qb.limit(query.limit).offset((query.page - 1) * query.limit))
        .execute(),
      base.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: total.n };
  }

  /**
   * Messages per recipient user and per season (SMS cost money): how many, how many in each
   * state (`queued` counts those being sent) and the segments the gateway billed.
   */
  async counts() {
    const tally = [
      sql<number>`count(*)::int`.as('messages'),
      sql<number>`coalesce(sum(s.segments), 0)::int`.as('segments'),
      sql<number>`(count(*) filter (where s.status in ('queued', 'sending')))::int`.as('queued'),
      sql<number>`(count(*) filter (where s.status = 'sent'))::int`.as('sent'),
      sql<number>`(count(*) filter (where s.status = 'delivered'))::int`.as('delivered'),
      sql<number>`(count(*) filter (where s.status = 'failed'))::int`.as('failed'),
    ] as const;
    const byUser = await this.db
      .selectFrom('sms_outbox as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select([
        's.user_id',
        sql<string>`trim(coalesce(u.firstname, '') || ' ' || coalesce(u.lastname, ''))`.as('name'),
        ...tally,
      ])
      .groupBy(['s.user_id', 'u.firstname', 'u.lastname'])
      .orderBy('messages', 'desc')
      .orderBy('s.user_id')
      .limit(100)
      .execute();
    const bySeason = await this.db
      .selectFrom('sms_outbox as s')
      .where('s.season_id', 'is not', null)
      .select(['s.season_id', ...tally])
      .groupBy('s.season_id')
      .orderBy('s.season_id', 'desc')
      .execute();
    return { byUser, bySeason };
  }

  async get(id: number): Promise<SmsRow | undefined> {
    return this.db.selectFrom('sms_outbox').selectAll().where('id', '=', id).executeTakeFirst();
  }
}

export type { SmsStatus };
