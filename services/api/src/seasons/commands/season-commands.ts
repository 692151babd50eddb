import { sql } from 'kysely';
import { identityUsers } from '../../identity/index.js';
import {
  EventCatalogue,
  handleCommand,
  readStream,
  streamRef,
  type CommandPipeline,
} from '@filiere/event-store';
import { NotFoundError } from '@filiere/platform';
import { seasonEvents, seasonStream } from '../catalogue.js';
import {
  acceptInvitation,
  activateSeason,
  archiveSeason,
  attachIndustrial,
  beninToday,
  createSeason,
  detachIndustrial,
  editSeason,
  evolveSeason,
  expireInvitation,
  initialSeasonState,
  previewAmounts,
  SEASON_MESSAGES,
  seasonStreamId,
  type Decision,
  type FertilizerCatalogue,
  type IndustrialFacts,
  type LinkAmounts,
  type LinkAnswer,
  type SeasonActor,
  type SeasonAnswer,
  type SeasonEvent,
  type SeasonInput,
  type SeasonState,
} from '../domain/index.js';
import type { SeasonsDb } from '../tables.js';
import { scopedKey } from './keys.js';

/** A season as the routes give it: a line's type may be left to the catalogue. */
export type SeasonRequest = Omit<SeasonInput, 'fertilizers'> & {
  fertilizers: {
    fertilizerId: number;
    typeId?: number | undefined;
    amount: number;
    index: number;
  }[];
};

type Patch = { [K in keyof SeasonRequest]?: SeasonRequest[K] | undefined };

/** A line without type takes its fertilizer's (an unknown fertilizer is refused by the decider). */
function withTypes(request: SeasonRequest, catalogue: FertilizerCatalogue): SeasonInput {
  return {
    ...request,
    fertilizers: request.fertilizers.map((line) => ({
      fertilizerId: line.fertilizerId,
      typeId: line.typeId ?? catalogue.get(line.fertilizerId)?.typeId ?? 0,
      amount: line.amount,
      index: line.index,
    })),
  };
}

/** The season's current fields with the patch's defined ones over them. */
function patched(state: SeasonState, patch: Patch): SeasonRequest {
  const current: SeasonRequest = {
    label: state.label,
    from: state.from,
    to: state.to,
    unitProductAmount: state.unitProductAmount,
    productionIndex: state.productionIndex,
    quotity: state.quotity,
    fertilizers: state.fertilizers,
  };
  const defined = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
  return { ...current, ...defined };
}

/** Only the seasons' own streams are read here (previews). */
const seasonCatalogue = new EventCatalogue(seasonEvents);

export interface SeasonCommandDeps {
  db: SeasonsDb;
  pipeline: CommandPipeline;
  /** Days before an invitation expires (SEASON_INVITATION_DAYS, default 7). */
  invitationDays: number;
  /** The clock (tests move it). */
  now?: () => Date;
}

/**
 * The seasons' command services: the caller, the request and the facts looked up here (the
 * fertilizer catalogue, the industrial's account, fresh ids) go to the deciders through the
 * command pipeline. Idempotency keys are scoped `<userId>:seasons.<command>:<key>`.
 */
export class SeasonCommands {
  constructor(private readonly deps: SeasonCommandDeps) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  private async nextId(sequence: 'season_ids' | 'season_link_ids'): Promise<number> {
    const { rows } = await sql<{ id: number }>`select nextval(${sequence})::integer as id`.execute(
      this.deps.db,
    );
    return rows[0]!.id;
  }

  private async catalogue(): Promise<FertilizerCatalogue> {
    const rows = await this.deps.db.selectFrom('fertilizers').select(['id', 'type_id']).execute();
    return new Map(rows.map((r) => [r.id, { typeId: r.type_id }]));
  }

  private run<R>(
    actor: SeasonActor,
    command: string,
    seasonId: number,
    input: unknown,
    key: string | undefined,
    decide: (state: SeasonState) => Decision<R>,
  ): Promise<R> {
    return handleCommand(this.deps.pipeline, {
      streams: { season: streamRef(seasonStream, seasonStreamId(seasonId)) },
      idempotency: scopedKey(actor.userId, command, key, { seasonId, input }),
      metadata: { userId: actor.userId },
      decide: ({ season }) => decide(season),
    });
  }

  /** POST clusters: a new season (its id drawn from `season_ids`). */
  async create(actor: SeasonActor, request: SeasonRequest, key?: string): Promise<SeasonAnswer> {
    const catalogue = await this.catalogue();
    const input = withTypes(request, catalogue);
    const seasonId = await this.nextId('season_ids');
    const today = beninToday(this.now());
    // The key's first answer names the season created first; a repeat draws an id it never uses.
    return handleCommand(this.deps.pipeline, {
      streams: { season: streamRef(seasonStream, seasonStreamId(seasonId)) },
      idempotency: scopedKey(actor.userId, 'create', key, input),
      metadata: { userId: actor.userId },
      decide: ({ season }) => createSeason(season, input, { actor, seasonId, today, catalogue }),
    });
  }

  /** PATCH clusters/{id}. */
  async edit(
    actor: SeasonActor,
    seasonId: number,
    patch: Patch,
    key?: string,
  ): Promise<SeasonAnswer> {
    const catalogue = await this.catalogue();
    const today = beninToday(this.now());
    return this.run(actor, 'edit', seasonId, patch, key, (state) =>
      editSeason(state, withTypes(patched(state, patch), catalogue), { actor, today, catalogue }),
    );
  }

  /** DELETE clusters/{id}: archives it. */
  archive(actor: SeasonActor, seasonId: number, key?: string): Promise<SeasonAnswer> {
    return this.run(actor, 'archive', seasonId, {}, key, (state) => archiveSeason(state, actor));
  }

  /** POST clusters/activate-cluster/{id}. */
  activate(actor: SeasonActor, seasonId: number, key?: string): Promise<SeasonAnswer> {
    return this.run(actor, 'activate', seasonId, {}, key, (state) => activateSeason(state, actor));
  }

  private async industrialFacts(userId: string): Promise<IndustrialFacts | null> {
    const user = await this.deps.db
      .selectFrom(identityUsers().as('users'))
      .innerJoin('roles', 'roles.id', 'users.role_id')
      .select(['users.id', 'roles.code', 'users.is_active', 'users.deleted_at'])
      .where('users.id', '=', userId)
      .executeTakeFirst();
    if (!user) return null;
    return {
      userId: user.id,
      role: user.code,
      status: user.deleted_at ? 'DELETED' : user.is_active ? 'ACTIVE' : 'INACTIVE',
    };
  }

  /** POST clusters/{clusterId}/industrial: invites an industrial with its quantity. */
  async attach(
    actor: SeasonActor,
    seasonId: number,
    input: { industrialId: string; quantity: number },
    key?: string,
  ): Promise<LinkAnswer> {
    const industrial = await this.industrialFacts(input.industrialId);
    const newLinkId = await this.nextId('season_link_ids');
    const now = this.now();
    return this.run(actor, 'attach', seasonId, input, key, (state) =>
      attachIndustrial(state, input, {
        actor,
        industrial,
        newLinkId,
        now,
        invitationDays: this.deps.invitationDays,
      }),
    );
  }

  /** The industrial accepts its invitation (POST seasons/{id}/accept). */
  accept(
    actor: SeasonActor,
    seasonId: number,
    input: { quantity?: number | undefined },
    key?: string,
  ): Promise<LinkAnswer> {
    const now = this.now();
    return this.run(actor, 'accept', seasonId, input, key, (state) =>
      acceptInvitation(state, input, { actor, now }),
    );
  }

  /** DELETE clusters/delete-industrial-link/{id}: the link is found in the read model. */
  async detach(
    actor: SeasonActor,
    linkId: number,
    key?: string,
  ): Promise<{ linkId: number; userId: string }> {
    const link = await this.deps.db
      .selectFrom('season_links')
      .select('season_id')
      .where('id', '=', linkId)
      .executeTakeFirst();
    if (!link) throw new NotFoundError(SEASON_MESSAGES.linkNotFound);
    return this.run(actor, 'detach', link.season_id, { linkId }, key, (state) =>
      detachIndustrial(state, { linkId }, actor),
    );
  }

  /**
   * The expiry job's command, idempotent by its decider: nothing is written unless the
   * invitation is still PENDING and due, so two sweeps (two processes, a retry, a read model
   * that lags) expire it once and answer `expired: false` to the others. No idempotency key:
   * a key would answer its first `expired: true` again to a sweep that re-reads a lagging row.
   */
  expire(seasonId: number, userId: string): Promise<{ expired: boolean }> {
    const now = this.now();
    return handleCommand(this.deps.pipeline, {
      streams: { season: streamRef(seasonStream, seasonStreamId(seasonId)) },
      metadata: { userId: 'system' },
      decide: ({ season }) => expireInvitation(season, { userId }, { now }),
    });
  }

  /** The three amount cards for `quantity` kg, from the season's stream (nothing written). */
  async preview(seasonId: number, quantity: number): Promise<LinkAmounts> {
    const events = await readStream(this.deps.db, seasonStreamId(seasonId), {
      catalogue: seasonCatalogue,
    });
    const state = events.reduce(
      (s, e) => evolveSeason(s, e as unknown as SeasonEvent),
      initialSeasonState(),
    );
    return previewAmounts(state, quantity);
  }
}
