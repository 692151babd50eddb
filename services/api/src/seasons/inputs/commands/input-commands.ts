import { sql } from 'kysely';
import { identityUsers } from '../../../identity/index.js';
import { handleCommand, streamRef, type CommandPipeline } from '@filiere/event-store';
import { NotFoundError } from '@filiere/platform';
import { walletStream, walletStreamId } from '../../../wallet/index.js';
import { seasonStream } from '../../catalogue.js';
import { scopedKey } from '../../commands/keys.js';
import { seasonStreamId, type SeasonActor } from '../../domain/index.js';
import { assignmentStream } from '../catalogue.js';
import {
  assignmentStreamId,
  assignProvider,
  banProvider,
  evolveAssignment,
  initialAssignmentState,
  INPUT_MESSAGES,
  maxQuantity,
  type AssignmentAnswer,
  type AssignmentState,
  type InputEvent,
  type ProviderFacts,
} from '../domain/index.js';
import type { InputsDb } from '../db.js';
import { runWithFacts, StaleFactsError } from './run.js';

export interface AssignRequest {
  linkId: number;
  /** The supplier (input_suppliers.id) or its representative's user id. */
  inputProviderId: string;
  fertilizerId: number;
  quantity: number;
}

/** A stream's version as the log holds it (0 when it has no event). */
async function versionOf(db: InputsDb, streamId: string): Promise<number> {
  const row = await db
    .selectFrom('events')
    .select((eb) => eb.fn.max('version').as('v'))
    .where('stream_id', '=', streamId)
    .executeTakeFirst();
  return Number(row?.v ?? 0);
}

/**
 * The log's events of one type about a link (`data.linkId`), read through the partial index
 * `events_link_id_idx` (migration 20261128_0401): its predicate and expression are this one.
 */
export function linkEvents(
  db: InputsDb,
  type: 'IndustrialAttached' | 'InputProviderAssigned',
  linkId: number,
) {
  return db
    .selectFrom('events')
    .where('type', '=', type)
    .where(sql<boolean>`(data->>'linkId')::integer = ${linkId}`);
}

/**
 * Every assignment of a link, folded from the log (not the read model, which may lag): the
 * maximum quantity must count an assignment committed a moment ago.
 */
export async function assignmentsOfLink(db: InputsDb, linkId: number): Promise<AssignmentState[]> {
  const rows = await db
    .selectFrom('events')
    .select(['stream_id', 'type', 'data'])
    .where('stream_id', 'in', linkEvents(db, 'InputProviderAssigned', linkId).select('stream_id'))
    .orderBy('position')
    .execute();
  const states = new Map<string, AssignmentState>();
  for (const row of rows) {
    const state = states.get(row.stream_id) ?? initialAssignmentState();
    states.set(
      row.stream_id,
      evolveAssignment(state, { type: row.type, data: row.data } as unknown as InputEvent),
    );
  }
  return [...states.values()];
}

export interface InputCommandDeps {
  db: InputsDb;
  pipeline: CommandPipeline;
  now?: () => Date;
}

/**
 * The input providers' command services: assign (stream `seasoninput-<id>` + the hold on
 * the industrial's wallet, one append) and ban (the ban + the hold's release).
 */
export class InputCommands {
  constructor(private readonly deps: InputCommandDeps) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /**
   * The link's season and industrial (from the log: the read model may lag behind an
   * acceptance), and the industrial's wallet. A link never changes season or industrial.
   */
  async linkOf(
    linkId: number,
  ): Promise<{ seasonId: number; userId: string; walletId: string | null }> {
    const attached = await linkEvents(this.deps.db, 'IndustrialAttached', linkId)
      .select('data')
      .orderBy('position', 'desc')
      .executeTakeFirst();
    if (!attached) throw new NotFoundError(INPUT_MESSAGES.linkNotFound);
    const { seasonId, userId } = attached.data as { seasonId: number; userId: string };
    const user = await this.deps.db
      .selectFrom(identityUsers().as('users'))
      .select('wallet_id')
      .where('id', '=', userId)
      .executeTakeFirst();
    return { seasonId, userId, walletId: user?.wallet_id ? String(user.wallet_id) : null };
  }

  private async providerFacts(inputProviderId: string): Promise<ProviderFacts | null> {
    const supplier = await this.deps.db
      .selectFrom('input_suppliers')
      .innerJoin(identityUsers().as('users'), 'users.id', 'input_suppliers.user_id')
      .select([
        'input_suppliers.id',
        'input_suppliers.user_id',
        'input_suppliers.deactivated_at',
        'users.is_active',
        'users.deleted_at',
      ])
      .where((eb) =>
        eb.or([
          eb('input_suppliers.id', '=', inputProviderId),
          eb('input_suppliers.user_id', '=', inputProviderId),
        ]),
      )
      .executeTakeFirst();
    if (!supplier) return null;
    const fertilizers = await this.deps.db
      .selectFrom('supplier_fertilizers')
      .select('fertilizer_id')
      .where('supplier_id', '=', supplier.id)
      .execute();
    return {
      userId: supplier.user_id,
      active: !supplier.deactivated_at && supplier.is_active && !supplier.deleted_at,
      fertilizerIds: fertilizers.map((f) => f.fertilizer_id),
    };
  }

  private async nextId(): Promise<number> {
    const { rows } = await sql<{
      id: number;
    }>`select nextval('season_input_ids')::integer as id`.execute(this.deps.db);
    return rows[0]!.id;
  }

  /** POST user-cluster-input-provider. */
  async assign(
    actor: SeasonActor,
    request: AssignRequest,
    key?: string,
  ): Promise<AssignmentAnswer> {
    const link = await this.linkOf(request.linkId);
    const provider = await this.providerFacts(request.inputProviderId);
    const assignmentId = await this.nextId();
    const now = this.now();
    const wallet = streamRef(walletStream, walletStreamId(link.walletId ?? 'none'));
    return runWithFacts(this.deps.pipeline, {
      idempotency: scopedKey(actor.userId, 'inputs.assign', key, request),
      metadata: { userId: actor.userId },
      streams: () => ({
        assignment: streamRef(assignmentStream, assignmentStreamId(assignmentId)),
        season: streamRef(seasonStream, seasonStreamId(link.seasonId)),
        wallet,
      }),
      // The wallet's version first, then the link's assignments: every assignment and ban of
      // the link appends to that wallet, so a decide that sees a newer wallet reads them again.
      facts: async () => {
        const walletVersion = await versionOf(this.deps.db, wallet.id);
        return {
          walletVersion,
          assignments: await assignmentsOfLink(this.deps.db, request.linkId),
        };
      },
      decide: (states, versions, facts) => {
        if (versions.wallet > facts.walletVersion) throw new StaleFactsError();
        return assignProvider(
          states,
          {
            linkId: request.linkId,
            fertilizerId: request.fertilizerId,
            quantityKg: request.quantity,
          },
          { actor, assignmentId, now, provider, assignments: facts.assignments },
        );
      },
    });
  }

  /** DELETE user-cluster-input-provider/{id}: bans the provider, releasing what the hold keeps. */
  async ban(
    actor: SeasonActor,
    assignmentId: number,
    key?: string,
  ): Promise<AssignmentAnswer & { released: number }> {
    const row = await this.deps.db
      .selectFrom('events')
      .select('data')
      .where('stream_id', '=', assignmentStreamId(assignmentId))
      .where('version', '=', 1)
      .executeTakeFirst();
    if (!row) throw new NotFoundError(INPUT_MESSAGES.assignmentNotFound);
    const { linkId } = row.data as { linkId: number };
    const link = await this.linkOf(linkId);
    return runWithFacts(this.deps.pipeline, {
      idempotency: scopedKey(actor.userId, 'inputs.ban', key, { assignmentId }),
      metadata: { userId: actor.userId },
      streams: () => ({
        assignment: streamRef(assignmentStream, assignmentStreamId(assignmentId)),
        wallet: streamRef(walletStream, walletStreamId(link.walletId ?? 'none')),
      }),
      facts: async () => null,
      decide: (states) => banProvider(states, { actor, now: this.now() }),
    });
  }

  /**
   * GET user-cluster-input-provider/input-quantite: the maximum still assignable for a
   * fertilizer in the industrial's link to the season (0 when none), from the log.
   */
  async maxQuantity(
    seasonId: number,
    industrialUserId: string,
    fertilizerId: number,
  ): Promise<number> {
    const state = await handleCommand(this.deps.pipeline, {
      streams: { season: streamRef(seasonStream, seasonStreamId(seasonId)) },
      metadata: { userId: industrialUserId },
      decide: ({ season }) => ({ writes: [], result: season }),
    });
    const link = state.links[industrialUserId];
    if (!state.exists || !link) throw new NotFoundError(INPUT_MESSAGES.linkNotFound);
    const assignments = await assignmentsOfLink(this.deps.db, link.linkId);
    return maxQuantity(state, industrialUserId, fertilizerId, assignments);
  }
}
