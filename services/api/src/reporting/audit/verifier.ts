import { sql, type Kysely } from 'kysely';
import { GENESIS_HASH, eventHash, readAllRaw, type EventStoreTables } from '@filiere/event-store';
import { narrowDb, type Logger, type LoopRunner } from '@filiere/platform';
import type { PushPublisher } from '@filiere/projections';
import type { IdentityTables } from '../../identity/index.js';
import { ROLE } from '../../kernel/roles.js';
import type { AuditTables } from './tables.js';
import { identityUsers } from '../../identity/index.js';

/** Events one run recomputes at most, at the tail and in the re-check sweep each. */
export const VERIFY_PAGE = 5_000;

/**
 * The re-check sweep's pace in the background loop: one sweep page per this interval at most.
 * The loop runs again at once while full pages of new events wait; those runs verify the tail
 * only (a sweep on each of them would re-read and re-hash a page of old events back to back
 * under load: 0.37 ms of PostgreSQL per transfer, measured).
 */
export const SWEEP_EVERY_MS = 1_000;

/**
 * Old events one sweep re-checks at most: 500 a second, in small bursts (as the tail's,
 * VERIFY_POLL_MS).
 */
export const SWEEP_PAGE = 500;

/**
 * Events hashed between two turns of the event loop: a page hashed in one go held the API's
 * requests and projectors up to ~300 ms (measured in a CPU profile).
 */
const HASH_SLICE = 200;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Only one process verifies at a time (the others' runs answer 0). */
const VERIFY_LOCK = 7_215_027_301;

/** The push that tells super admins and accountants the chain broke. */
export const AUDIT_INTEGRITY_PUSH = 'audit.integrity';

export type VerifierTables = AuditTables &
  EventStoreTables &
  Pick<IdentityTables, 'users' | 'roles'>;

export interface IntegrityRun {
  /** New events verified at the tail. */
  verified: number;
  /** Already verified events recomputed again by the sweep. */
  rechecked: number;
  status: 'OK' | 'BROKEN';
  brokenAt?: number;
}

/** The log as the event store reads it (its Kysely typing is its own package's). */
const asLog = (db: Kysely<VerifierTables>) => db as unknown as Kysely<EventStoreTables>;

class Broken extends Error {
  constructor(
    readonly position: number,
    reason: string,
  ) {
    super(reason);
  }
}

/**
 * The incremental verification of the event log's hash chain (the event store's
 * `verifyLog`, a page at a time, resumable): each run
 *  1. checks that the event at the last verified position still has the hash recorded for
 *     it (a log rewritten from there on, hashes included, disagrees with it);
 *  2. recomputes the new events' hashes from there (positions gap-free, each hash =
 *     sha256(previous ‖ canonical event)), and records how far the chain holds;
 *  3. recomputes a page of the events already verified (a sweep from the start that wraps
 *     around): an event changed in place below the last verified position is found there.
 * The first break turns the status BROKEN (it stays so: the log needs an investigation) and
 * is pushed at once to the super admins and the accountants.
 */
export class IntegrityVerifier implements LoopRunner {
  private readonly db: Kysely<VerifierTables>;
  /** When this verifier's loop last swept (0: never, so its first run sweeps). */
  private lastSweep = 0;

  constructor(
    db: Kysely<VerifierTables>,
    private readonly publish: PushPublisher,
    private readonly logger: Logger,
    private readonly page = VERIFY_PAGE,
    private readonly sweepEveryMs = SWEEP_EVERY_MS,
    private readonly sweepPage = Math.min(page, SWEEP_PAGE),
  ) {
    this.db = narrowDb<VerifierTables>()(db);
  }

  /**
   * The loop's run: the tail always, the sweep when `sweepEveryMs` passed since the last one.
   * Answers the new events verified when it verified a full page (more may wait: the loop runs
   * again at once), else 0 (the next run comes with the loop's poll).
   */
  async runDue(): Promise<number> {
    const sweep = Date.now() - this.lastSweep >= this.sweepEveryMs;
    const run = await this.verifyOnce({ sweep });
    if (run && sweep) this.lastSweep = Date.now();
    return run?.status === 'OK' && run.verified >= this.page ? run.verified : 0;
  }

  /**
   * One run (null: another process holds the verification, or it is already BROKEN); the
   * sweep's page too unless `sweep: false`.
   */
  async verifyOnce({
    sweep: sweeping = true,
  }: { sweep?: boolean } = {}): Promise<IntegrityRun | null> {
    const run = await this.db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ locked: boolean }>`
        select pg_try_advisory_xact_lock(${VERIFY_LOCK}) as locked`.execute(trx);
      if (!rows[0]?.locked) return null;
      const state = await trx
        .selectFrom('audit_integrity')
        .selectAll()
        .forUpdate()
        .executeTakeFirst();
      if (!state || state.status === 'BROKEN') return null;
      const verifiedTo = Number(state.last_position);
      let position = verifiedTo;
      let hash = state.last_hash;
      let sweep = Number(state.sweep_position);
      let sweeps = Number(state.sweeps);
      let verified = 0;
      let rechecked = 0;
      try {
        if (verifiedTo > 0 && (await this.storedHash(trx, verifiedTo)) !== hash) {
          throw new Broken(verifiedTo, 'the event at the last verified position changed');
        }
        for (const event of await readAllRaw(asLog(trx), { after: verifiedTo, limit: this.page })) {
          if (verified > 0 && verified % HASH_SLICE === 0) await nextTurn();
          if (event.position !== position + 1) {
            throw new Broken(position + 1, `position ${position + 1} is missing`);
          }
          if (eventHash(hash, event) !== event.hash) {
            throw new Broken(event.position, 'stored hash does not match the event');
          }
          hash = event.hash;
          position = event.position;
          verified++;
        }
        if (sweeping && verifiedTo > 0) {
          let previous = sweep === 0 ? GENESIS_HASH : await this.storedHash(trx, sweep);
          if (previous === undefined) throw new Broken(sweep, `position ${sweep} is missing`);
          const limit = Math.min(this.sweepPage, verifiedTo - sweep);
          for (const event of await readAllRaw(asLog(trx), { after: sweep, limit })) {
            if (rechecked > 0 && rechecked % HASH_SLICE === 0) await nextTurn();
            if (event.position !== sweep + 1) {
              throw new Broken(sweep + 1, `position ${sweep + 1} is missing`);
            }
            if (eventHash(previous, event) !== event.hash) {
              throw new Broken(event.position, 'stored hash does not match the event');
            }
            previous = event.hash;
            sweep = event.position;
            rechecked++;
          }
          if (sweep >= verifiedTo) {
            sweep = 0;
            sweeps++;
          }
        }
      } catch (error) {
        if (!(error instanceof Broken)) throw error;
        await trx
          .updateTable('audit_integrity')
          .set({
            status: 'BROKEN',
            broken_at: error.position,
            reason: error.message,
            broken_detected_at: sql<Date>`now()`,
            verified_at: sql<Date>`now()`,
          })
          .execute();
        return {
          verified,
          rechecked,
          status: 'BROKEN' as const,
          brokenAt: error.position,
        };
      }
      await trx
        .updateTable('audit_integrity')
        .set({
          last_position: position,
          last_hash: hash,
          verified_at: sql<Date>`now()`,
          sweep_position: sweep,
          sweeps,
        })
        .execute();
      return { verified, rechecked, status: 'OK' as const };
    });
    if (run?.status === 'BROKEN') {
      this.logger.error({ brokenAt: run.brokenAt }, 'event log hash chain is BROKEN');
      await this.pushBroken(run.brokenAt!);
    }
    return run;
  }

  private async storedHash(trx: Kysely<VerifierTables>, position: number) {
    const row = await trx
      .selectFrom('events')
      .select('hash')
      .where('position', '=', position)
      .executeTakeFirst();
    return row?.hash;
  }

  /** `audit.integrity` to every active super admin and platform auditor (after the commit). */
  private async pushBroken(brokenAt: number): Promise<void> {
    const users = await this.db
      .selectFrom(identityUsers().as('users'))
      .innerJoin('roles', 'roles.id', 'users.role_id')
      .select('users.id')
      .where((eb) =>
        eb.or([
          eb('roles.code', '=', ROLE.SUPER_ADMIN),
          // The platform's auditor: an accountant outside any organisation.
          eb.and([eb('roles.code', '=', ROLE.ACCOUNTING), eb('users.organization_id', 'is', null)]),
        ]),
      )
      .where('users.deleted_at', 'is', null)
      .where('users.is_active', '=', true)
      .execute();
    if (!users.length) return;
    try {
      await this.publish([
        {
          type: AUDIT_INTEGRITY_PUSH,
          userIds: users.map((u) => u.id),
          data: { status: 'BROKEN', brokenAt },
        },
      ]);
    } catch (err) {
      this.logger.warn({ err }, 'audit.integrity push not published');
    }
  }
}

/** What the integrity panel shows. */
export interface IntegrityView {
  status: 'OK' | 'BROKEN';
  lastVerifiedPosition: number;
  verifiedAt: string | null;
  brokenAt: number | null;
  reason: string | null;
  brokenDetectedAt: string | null;
  /** The log's head now (how far behind the verification is). */
  headPosition: number;
  /** Complete re-check sweeps of the verified events so far. */
  sweeps: number;
}

export async function integrityView(db: Kysely<VerifierTables>): Promise<IntegrityView> {
  const row = await db.selectFrom('audit_integrity').selectAll().executeTakeFirstOrThrow();
  const { rows } = await sql<{ position: string }>`
    select position::text from event_head where id`.execute(db);
  return {
    status: row.status,
    lastVerifiedPosition: Number(row.last_position),
    verifiedAt: row.verified_at ? row.verified_at.toISOString() : null,
    brokenAt: row.broken_at === null ? null : Number(row.broken_at),
    reason: row.reason,
    brokenDetectedAt: row.broken_detected_at ? row.broken_detected_at.toISOString() : null,
    headPosition: Number(rows[0]?.position ?? 0),
    sweeps: Number(row.sweeps),
  };
}
