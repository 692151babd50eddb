import { randomInt } from 'node:crypto';
import { identityUsers } from '../../../identity/index.js';
import { sql, type Kysely } from 'kysely';
import {
  handleCommand,
  streamRef,
  type CommandPipeline,
  type StreamRef,
} from '@filiere/event-store';
import { AppError, BusinessRuleError, NotFoundError } from '@filiere/platform';
import type { ActorsTables } from '../../../actors/index.js';
import type { IdentityTables } from '../../../identity/index.js';
import { walletStream, walletStreamId, type Recipient } from '../../../wallet/index.js';
import { debtStream, debtStreamId } from '../../../contracts/index.js';
import { seasonStream } from '../../catalogue.js';
import { scopedKey } from '../../commands/keys.js';
import { assignmentsOfLink, type InputsDb } from '../../inputs/index.js';
import { beninToday, seasonStreamId, type SeasonState } from '../../domain/index.js';
import type { SeasonsDbTables } from '../../tables.js';
import {
  acceptRequest,
  fileRequest,
  rejectRequest,
  requestDebtId,
  REQUEST_MESSAGES,
  requestStream,
  requestStreamId,
  type FileRequestFacts,
  type FileRequestInput,
  type RequestActor,
  type RequestAnswer,
} from '../domain/index.js';

/** What the requests' commands read besides the event log. */
export type RequestsDbTables = SeasonsDbTables &
  Pick<IdentityTables, 'users' | 'roles' | 'organizations'> &
  Pick<ActorsTables, 'growers' | 'cooperatives' | 'cluster_settings'>;

export type RequestsDb = Kysely<RequestsDbTables>;

export interface RequestCommandDeps {
  db: RequestsDb;
  /** The inputs area's view of the pool (assignments folded from the log). */
  inputs: InputsDb;
  pipeline: CommandPipeline;
  limits: { maxCommandAmount: number; maxBalance: number };
  /** The clock (tests move it). */
  now?: () => Date;
}

/** One id's answer in a bulk accept or reject. */
export type BulkItem =
  | { id: number; ok: true; request: RequestAnswer }
  | { id: number; ok: false; statusCode: number; message: string; missingAmount?: number };

/**
 * The growers' requests' command services. Each command is ONE pipeline command: filing
 * writes the request's stream; accepting a PINEAPLE or SOCIAL request writes the request,
 * both wallets (the transfer) and the debt's stream in the same append. Idempotency keys are
 * scoped `<userId>:seasons.request.<command>:<key>` with the request's fingerprint; a bulk
 * command gives each id its own key (`<key>:<id>`).
 */
export class RequestCommands {
  constructor(private readonly deps: RequestCommandDeps) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /** A stream's current state through the pipeline (its cache), writing nothing. */
  private stateOf<S>(stream: StreamRef<S>): Promise<S> {
    return handleCommand(this.deps.pipeline, {
      streams: { stream },
      decide: (states) => ({ writes: [], result: states.stream }),
    });
  }

  /** The key (`<userId>:seasons.request.<command>:<key>`) and author of a command. */
  private keyed(actor: RequestActor, command: string, input: unknown, key: string | undefined) {
    return {
      idempotency: scopedKey(actor.userId, `request.${command}`, key, input),
      metadata: { userId: actor.userId },
    };
  }

  private async nextRequestId(): Promise<number> {
    const { rows } = await sql<{
      id: number;
    }>`select nextval('season_request_ids')::integer as id`.execute(this.deps.db);
    return rows[0]!.id;
  }

  /** The grower, its account and its cooperative's user. */
  private async growerFacts(growerId: string) {
    const row = await this.deps.db
      .selectFrom('growers as g')
      .innerJoin(identityUsers().as('u'), 'u.id', 'g.user_id')
      .leftJoin('cooperatives as c', 'c.organization_id', 'g.cooperative_id')
      .select([
        'g.id',
        'g.user_id',
        'g.cluster_id',
        'g.deactivated_at',
        'u.is_active',
        'u.deleted_at',
        'c.user_id as cooperative_user_id',
      ])
      .where('g.id', '=', growerId)
      .executeTakeFirst();
    return row ?? null;
  }

  /**
   * The CONFIRMED link in the season of the grower's cluster's industrial: the aggregator
   * configured for the cluster ('Configurer mon cluster') first, else an aggregator whose
   * account is in that cluster (the first attached).
   */
  private async clusterLink(
    season: SeasonState,
    clusterId: string,
  ): Promise<{ linkId: number; industrialUserId: string } | null> {
    const confirmed = Object.values(season.links).filter((l) => l.status === 'CONFIRMED');
    if (confirmed.length === 0) return null;
    const configured = await this.deps.db
      .selectFrom('cluster_settings')
      .select('industrial_user_id')
      .where('cluster_id', '=', clusterId)
      .executeTakeFirst();
    const byConfig = confirmed.find((l) => l.userId === configured?.industrial_user_id);
    if (byConfig) return { linkId: byConfig.linkId, industrialUserId: byConfig.userId };
    const inCluster = await this.deps.db
      .selectFrom(identityUsers().as('users'))
      .select('id')
      .where('cluster_id', '=', clusterId)
      .where(
        'id',
        'in',
        confirmed.map((l) => l.userId),
      )
      .execute();
    const ids = new Set(inCluster.map((u) => u.id));
    const first = confirmed.filter((l) => ids.has(l.userId)).sort((a, b) => a.linkId - b.linkId)[0];
    return first ? { linkId: first.linkId, industrialUserId: first.userId } : null;
  }

  private async userFacts(userId: string) {
    return this.deps.db
      .selectFrom(identityUsers().as('users'))
      .innerJoin('roles', 'roles.id', 'users.role_id')
      .select([
        'users.id',
        'roles.code',
        'users.is_active',
        'users.deleted_at',
        'users.cluster_id',
        'users.wallet_id',
      ])
      .where('users.id', '=', userId)
      .executeTakeFirst();
  }

  /** POST season-requests: a grower (its own) or its cooperative's user files a request. */
  async file(actor: RequestActor, input: FileRequestInput, key?: string): Promise<RequestAnswer> {
    const now = this.now();
    const grower = await this.growerFacts(input.growerId);
    const season = await this.stateOf(streamRef(seasonStream, seasonStreamId(input.seasonId)));
    const link =
      grower && input.type !== 'SOCIAL' && season.exists
        ? await this.clusterLink(season, grower.cluster_id)
        : null;
    const sfd =
      input.type === 'SOCIAL' && input.sfdUserId ? await this.userFacts(input.sfdUserId) : null;
    const requestId = await this.nextRequestId();
    const facts: FileRequestFacts = {
      requestId,
      actor,
      now,
      today: beninToday(now),
      grower: grower
        ? {
            growerId: grower.id,
            userId: grower.user_id,
            active: grower.deactivated_at === null && grower.is_active && !grower.deleted_at,
            cooperativeUserId: grower.cooperative_user_id ?? null,
          }
        : null,
      season: {
        exists: season.exists,
        archived: season.archived,
        isActive: season.isActive,
        to: season.to,
        lines: new Map(season.fertilizers.map((l) => [l.fertilizerId, { amount: l.amount }])),
      },
      link,
      sfd: sfd
        ? { userId: sfd.id, role: sfd.code, active: sfd.is_active && !sfd.deleted_at }
        : null,
    };
    // The key's first answer names the request filed first; a repeat draws an id it never uses.
    return handleCommand(this.deps.pipeline, {
      ...this.keyed(actor, 'file', input, key),
      streams: { request: streamRef(requestStream, requestStreamId(requestId)) },
      decide: ({ request }) => fileRequest(request, input, facts),
    });
  }

  /**
   * Claims a fresh delivery code for the request: random `AGW_` + 6 digits, unique by the
   * claims table's primary key (a collision draws again).
   */
  private async claimCode(requestId: number): Promise<string> {
    for (let attempt = 0; attempt < 50; attempt++) {
      const code = `AGW_${String(randomInt(0, 1_000_000)).padStart(6, '0')}`;
      const claimed = await this.deps.db
        .insertInto('season_request_codes')
        .values({ code, request_id: requestId })
        .onConflict((oc) => oc.column('code').doNothing())
        .returning('code')
        .executeTakeFirst();
      if (claimed) return claimed.code;
    }
    throw new BusinessRuleError('Aucun code de livraison libre : réessayez');
  }

  /**
   * Whether the link has an ACTIVE input provider assignment for the fertilizer, folded from
   * the log by the inputs area (its read table may lag, and is not projected while the demo
   * loads).
   */
  private async hasActiveProvider(linkId: number, fertilizerId: number): Promise<boolean> {
    const assignments = await assignmentsOfLink(this.deps.inputs, linkId);
    return assignments.some((a) => a.fertilizerId === fertilizerId && a.status === 'ACTIVE');
  }

  /** Accepts one request (INPUT: code; PINEAPLE, SOCIAL: the transfer and the debt). */
  async accept(actor: RequestActor, requestId: number, key?: string): Promise<RequestAnswer> {
    const ownStream = streamRef(requestStream, requestStreamId(requestId));
    const request = await this.stateOf(ownStream);
    if (!request.exists) throw new NotFoundError(REQUEST_MESSAGES.notFound);
    const now = this.now();
    const input = { requestId };
    if (request.type === 'INPUT') {
      // Facts are looked up only for a request the caller may still accept.
      const open = request.status === 'CREATED' && request.industrialUserId === actor.userId;
      const hasActiveProvider = open
        ? await this.hasActiveProvider(request.linkId!, request.fertilizerId!)
        : false;
      const code = open && hasActiveProvider ? await this.claimCode(requestId) : undefined;
      return handleCommand(this.deps.pipeline, {
        ...this.keyed(actor, 'accept', input, key),
        streams: { request: ownStream },
        decide: (states) =>
          acceptRequest(states, { actor, now, hasActiveProvider, ...(code ? { code } : {}) }),
      });
    }
    const payerId = request.type === 'SOCIAL' ? request.sfdUserId! : request.industrialUserId!;
    const payer = await this.userFacts(payerId);
    const grower = await this.userFacts(request.growerUserId!);
    if (!payer || !grower) throw new NotFoundError('Portefeuille introuvable');
    const wallets = { payerWalletId: payer.wallet_id, growerWalletId: grower.wallet_id };
    const recipient: Recipient = {
      userId: grower.id,
      role: grower.code,
      clusterId: grower.cluster_id,
      status: grower.deleted_at ? 'DELETED' : grower.is_active ? 'ACTIVE' : 'INACTIVE',
    };
    return handleCommand(this.deps.pipeline, {
      ...this.keyed(actor, 'accept', input, key),
      streams: {
        request: ownStream,
        payer: streamRef(walletStream, walletStreamId(wallets.payerWalletId)),
        grower: streamRef(walletStream, walletStreamId(wallets.growerWalletId)),
        debt: streamRef(debtStream, debtStreamId(requestDebtId(requestId))),
      },
      decide: (states) =>
        acceptRequest(states, { actor, now, ...wallets, recipient, limits: this.deps.limits }),
    });
  }

  /** Rejects one request with its reason. */
  reject(
    actor: RequestActor,
    requestId: number,
    reason: string,
    key?: string,
  ): Promise<RequestAnswer> {
    const now = this.now();
    return handleCommand(this.deps.pipeline, {
      ...this.keyed(actor, 'reject', { requestId, reason }, key),
      streams: { request: streamRef(requestStream, requestStreamId(requestId)) },
      decide: ({ request }) => rejectRequest(request, { reason }, { actor, now }),
    });
  }

  /** Each id its own command (its own key `<key>:<id>`); the answer per id, in order. */
  async acceptMany(actor: RequestActor, ids: number[], key?: string): Promise<BulkItem[]> {
    return bulk(ids, (id) => this.accept(actor, id, key ? `${key}:${id}` : undefined));
  }

  async rejectMany(
    actor: RequestActor,
    items: { id: number; reason: string }[],
    key?: string,
  ): Promise<BulkItem[]> {
    const reasons = new Map(items.map((i) => [i.id, i.reason]));
    return bulk([...reasons.keys()], (id) =>
      this.reject(actor, id, reasons.get(id)!, key ? `${key}:${id}` : undefined),
    );
  }
}

/** Runs one command per id, a few at a time; an id's refusal is its answer, not the batch's. */
async function bulk(
  ids: number[],
  one: (id: number) => Promise<RequestAnswer>,
): Promise<BulkItem[]> {
  const unique = [...new Set(ids)];
  const answers: BulkItem[] = [];
  for (let i = 0; i < unique.length; i += 8) {
    const chunk = unique.slice(i, i + 8);
    answers.push(
      ...(await Promise.all(
        chunk.map(async (id): Promise<BulkItem> => {
          try {
            return { id, ok: true, request: await one(id) };
          } catch (error) {
            if (!(error instanceof AppError)) throw error;
            const missing = error.data.missingAmount;
            return {
              id,
              ok: false,
              statusCode: error.statusCode,
              message: error.message,
              ...(typeof missing === 'number' ? { missingAmount: missing } : {}),
            };
          }
        }),
      )),
    );
  }
  return answers;
}
