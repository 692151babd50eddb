import { createHash, randomUUID } from 'node:crypto';
import { sql, type Kysely, type Selectable } from 'kysely';
import {
  canonicalJson,
  handleCommand,
  streamRef,
  type CommandWrite,
  type CommandPipeline,
  type StreamRef,
} from '@filiere/event-store';
import { beninDay, ForbiddenError, NotFoundError } from '@filiere/platform';
import type { ActorsTables } from '../../../actors/index.js';
import {
  identityUsers,
  normalizeBeninPhone,
  type IdentityTables,
  type SmsSender,
} from '../../../identity/index.js';
import type { SignedInUser } from '../../../kernel/actor.js';
import { ROLE } from '../../../kernel/roles.js';
import {
  placeHold,
  walletStream,
  walletStreamId,
  type WalletState,
} from '../../../wallet/index.js';
import { contractStreamType } from '../../catalogue.js';
import type { AcceptanceCodes } from '../../commands/acceptance-code.js';
import { sendAcceptanceOffer } from '../../commands/delivery-contract-commands.js';
import {
  contractStreamId,
  createDeliveryContract,
  insufficientBalanceError,
  type CodeToIssue,
  type ContractState,
} from '../../domain/index.js';
import {
  checkCells,
  FILE_COLUMNS,
  FILE_LIMITS,
  fileRefused,
  readContractFile,
  type CheckedCells,
  type FileProblem,
} from '../domain/contract-file.js';
import {
  parentStream,
  parentStreamId,
  ParentContractCreated,
  type ParentContractState,
} from '../domain/events.js';
import type { BatchesTables } from '../tables.js';

/** What the batch commands read and write (previews) beside the event store. */
export type BatchFactsTables = BatchesTables &
  Pick<IdentityTables, 'users'> &
  Pick<ActorsTables, 'growers' | 'plots'>;

/** How long a preview waits for 'Valider'. */
export const PREVIEW_TTL_MS = 24 * 60 * 60 * 1000;

export const BATCH_MESSAGES = {
  previewNotFound: 'Aperçu introuvable : chargez le fichier à nouveau',
  previewExpired: 'Cet aperçu a expiré (24 h) : chargez le fichier à nouveau',
  notYours: 'Cet aperçu ne vous appartient pas',
  growerNotFound: 'Producteur introuvable',
  growerMismatch: 'La référence et le téléphone ne désignent pas le même producteur',
  /** The actors' wording of a grower out of reach (GET grower/{id} answers it as a 403). */
  outOfReach: 'Ce producteur n’est pas dans votre périmètre',
  noCluster:
    'Aucun cluster ne vous est attribué : un administrateur doit vous en attribuer un avant que vous puissiez créer des contrats',
  plotNotFound: 'Parcelle introuvable pour ce producteur',
  plotAmbiguous: 'Ce producteur a plusieurs parcelles : indiquez laquelle',
  noPlot: 'Ce producteur n’a aucune parcelle',
  duplicate: (line: number) => `Ce producteur et cette parcelle figurent déjà ligne ${line}`,
} as const;

/** A sub-contract's stream, named by its stream id among the validation's streams. */
const subKey = (contractId: string) => `contract-${contractId}` as const;

/** The streams of a validation: the parent, the aggregator's wallet and each sub-contract. */
type ValidateStreams = {
  parent: StreamRef<ParentContractState>;
  wallet: StreamRef<WalletState>;
} & Record<ReturnType<typeof subKey>, StreamRef<ContractState>>;

/** A row selected in the app ('create from selected growers'). */
export interface SelectedGrowerRow {
  growerId: string;
  /** The plot; absent → the grower's only plot (several: the row is refused). */
  productId?: string | undefined;
  /** Tonnes, at most three decimals. */
  quantity: string | number;
  amount: number;
  deliveryDate?: string | undefined;
}

export interface PreviewSummary {
  previewId: string;
  source: 'FILE' | 'GROWERS';
  fileName: string | null;
  count: number;
  totalKg: number;
  totalAmount: number;
  expiresAt: string;
  parentId: string | null;
}

export interface ParentAnswer {
  parentId: string;
  reference: string;
  count: number;
  totalAmount: number;
}

interface ResolvedRow {
  line: number;
  growerId: string;
  growerUserId: string;
  plotId: string;
  productType: 'CAYENNE_LISSE' | 'PAIN_DE_SUCRE';
  quantityKg: number;
  amount: number;
  deliveryDate: string;
}

/** A sub-contract's id, derived from the preview and the line: a retry names the same ids. */
export function subContractId(previewId: string, line: number): string {
  const hex = createHash('sha256').update(`${previewId}:${line}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * What a validation's idempotency key is bound to: SHA-256 of the canonical JSON of
 * `{ command, previewId }`, the form its stored keys carry, so a repeat answers them.
 */
function validationFingerprint(previewId: string): string {
  return createHash('sha256')
    .update(canonicalJson({ command: 'contracts.batches.validate', previewId }), 'utf8')
    .digest('hex');
}

/** The cluster whose growers the aggregator reaches (403 without one). */
function clusterOf(user: SignedInUser): string {
  if (!user.cluster_id)
    throw new ForbiddenError(BATCH_MESSAGES.noCluster, { reason: 'NO_CLUSTER' });
  return user.cluster_id;
}

const seesAll = (user: SignedInUser) =>
  user.role_code === ROLE.SUPER_ADMIN || user.role_code === ROLE.ADMIN;

/**
 * 'Create many' (LIVRAISON_PARENT): a file or a selection becomes a stored PREVIEW (checked
 * against the actors' growers and plots, every problem named, nothing created); 'Valider'
 * turns the preview into one parent and a sub-contract per row in ONE pipeline command over
 * the parent's stream, every sub-contract's stream and the aggregator's wallet — one hold
 * per sub-contract (`contract-<subId>`, as a single contract's), so each sub can be run or
 * cancelled alone. All or nothing: a short balance for the total is a 422 and writes nothing.
 */
export class ContractBatchCommands {
  constructor(
    private readonly db: Kysely<BatchFactsTables>,
    private readonly pipeline: CommandPipeline,
    private readonly clock: () => Date = () => new Date(),
    private readonly limits: { maxBytes: number; maxRows: number } = FILE_LIMITS,
    /** Where each sub-contract's offer and code go (as a single contract's). */
    private readonly sms: SmsSender | null = null,
    /** Draws each sub-contract's acceptance code. */
    private readonly acceptanceCodes: AcceptanceCodes | null = null,
  ) {}

  /** One acceptance code per sub-contract whose grower has a phone (read now), as a single contract's. */
  private async offersFor(
    subs: { id: string; growerUserId: string }[],
  ): Promise<Map<string, { code: string; issue: CodeToIssue }>> {
    const userIds = [...new Set(subs.map((s) => s.growerUserId))];
    const phones = new Map<string, string>();
    for (let i = 0; i < userIds.length; i += 1000) {
      const rows = await this.db
        .selectFrom(identityUsers().as('u'))
        .select(['u.id', 'u.phone'])
        .where('u.id', 'in', userIds.slice(i, i + 1000))
        .execute();
      for (const row of rows) if (row.phone) phones.set(row.id, String(row.phone));
    }
    if (!this.acceptanceCodes)
      throw new Error('ContractBatchCommands: no acceptance codes to draw');
    const offers = new Map<string, { code: string; issue: CodeToIssue }>();
    for (const s of subs) {
      const phone = phones.get(s.growerUserId);
      if (phone) offers.set(s.id, this.acceptanceCodes.issue(phone));
    }
    return offers;
  }

  /** An uploaded .xlsx/.csv → a stored preview, or 400 with every problem. */
  async previewFile(
    user: SignedInUser,
    file: { buffer: Buffer; fileName: string },
  ): Promise<PreviewSummary> {
    const raw = await readContractFile(file.buffer, file.fileName, this.limits);
    const today = beninDay(this.clock());
    const { checked, problems } = checkCells(raw, today, normalizeBeninPhone);
    const resolved = await this.resolve(user, checked, problems);
    if (problems.length > 0) throw fileRefused(sortProblems(problems));
    return this.store(user, 'FILE', file.fileName.slice(0, 255), resolved);
  }

  /** Rows chosen in the app (grower, plot, quantity, amount) → a stored preview. */
  async previewGrowers(user: SignedInUser, rows: SelectedGrowerRow[]): Promise<PreviewSummary> {
    const today = beninDay(this.clock());
    // Same cell checks as a file's: line n is the n-th selected row.
    const { checked, problems } = checkCells(
      rows.map((row, index) => ({
        line: index + 1,
        cells: {
          reference: `#${row.growerId}`,
          phone: '',
          plot: row.productId ? `#${row.productId}` : '',
          quantity: String(row.quantity),
          amount: String(row.amount),
          deliveryDate: row.deliveryDate ?? '',
        },
      })),
      today,
      normalizeBeninPhone,
    );
    const resolved = await this.resolve(user, checked, problems);
    if (problems.length > 0) throw fileRefused(sortProblems(problems));
    return this.store(user, 'GROWERS', null, resolved);
  }

  /**
   * Growers by reference or phone (a `#<id>` reference is a grower id, from a selection),
   * then each row's plot: its name or id, or the grower's only plot when the cell is empty.
   * A grower of another cluster than the aggregator's is a problem of its row (the reach of
   * GET grower/{id}); an aggregator without a cluster reaches no grower (403).
   */
  private async resolve(
    user: SignedInUser,
    checked: CheckedCells[],
    problems: FileProblem[],
  ): Promise<ResolvedRow[]> {
    const clusterId = clusterOf(user);
    if (checked.length === 0) return [];
    const ids = new Set<string>();
    const references = new Set<string>();
    const phones = new Set<string>();
    for (const row of checked) {
      if (row.reference?.startsWith('#')) ids.add(row.reference.slice(1).toLowerCase());
      else if (row.reference) references.add(row.reference);
      if (row.phone) phones.add(row.phone);
    }
    const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    const validIds = [...ids].filter((id) => UUID.test(id));
    const growers =
      validIds.length + references.size + phones.size === 0
        ? []
        : await this.db
            .selectFrom('growers as g')
            .innerJoin(identityUsers().as('u'), 'u.id', 'g.user_id')
            .select(['g.id', 'g.user_id', 'g.reference', 'g.cluster_id', 'u.phone'])
            .where('g.deactivated_at', 'is', null)
            .where((eb) =>
              eb.or([
                ...(validIds.length ? [eb('g.id', 'in', validIds)] : []),
                ...(references.size ? [eb('g.reference', 'in', [...references])] : []),
                ...(phones.size ? [eb('u.phone', 'in', [...phones])] : []),
              ]),
            )
            .execute();
    const byId = new Map(growers.map((g) => [g.id, g]));
    const byReference = new Map(growers.map((g) => [g.reference.toUpperCase(), g]));
    const byPhone = new Map(growers.filter((g) => g.phone).map((g) => [g.phone!, g]));
    const plots = growers.length
      ? await this.db
          .selectFrom('plots')
          .select(['id', 'grower_id', 'name', 'product_type'])
          .where(
            'grower_id',
            'in',
            growers.map((g) => g.id),
          )
          .orderBy('seq')
          .execute()
      : [];
    const plotsOf = new Map<string, typeof plots>();
    for (const plot of plots) {
      plotsOf.set(plot.grower_id, [...(plotsOf.get(plot.grower_id) ?? []), plot]);
    }
    const seen = new Map<string, number>();
    const resolved: ResolvedRow[] = [];
    for (const row of checked) {
      const problem = (column: keyof typeof FILE_COLUMNS, reason: string) =>
        problems.push({ line: row.line, column: FILE_COLUMNS[column], reason });
      const selected = row.reference?.startsWith('#');
      const byRef = row.reference
        ? selected
          ? byId.get(row.reference.slice(1).toLowerCase())
          : byReference.get(row.reference)
        : undefined;
      const byTel = row.phone ? byPhone.get(row.phone) : undefined;
      if (row.reference && !byRef) {
        problem('reference', BATCH_MESSAGES.growerNotFound);
        continue;
      }
      if (row.phone && !byTel) {
        problem('phone', BATCH_MESSAGES.growerNotFound);
        continue;
      }
      if (byRef && byTel && byRef.id !== byTel.id) {
        problem('phone', BATCH_MESSAGES.growerMismatch);
        continue;
      }
      const grower = (byRef ?? byTel)!;
      if (grower.cluster_id !== clusterId) {
        problem(byRef ? 'reference' : 'phone', BATCH_MESSAGES.outOfReach);
        continue;
      }
      const own = plotsOf.get(grower.id) ?? [];
      let plot: (typeof plots)[number] | undefined;
      if (!row.plot) {
        if (own.length === 0) problem('plot', BATCH_MESSAGES.noPlot);
        else if (own.length > 1) problem('plot', BATCH_MESSAGES.plotAmbiguous);
        else plot = own[0];
      } else {
        const wanted = row.plot.startsWith('#') ? row.plot.slice(1) : row.plot;
        const folded = wanted.trim().toLowerCase();
        plot = own.find((p) => p.id === folded || p.name.trim().toLowerCase() === folded);
        if (!plot) problem('plot', BATCH_MESSAGES.plotNotFound);
      }
      if (!plot) continue;
      const key = `${grower.id}:${plot.id}`;
      const first = seen.get(key);
      if (first !== undefined) {
        problem('plot', BATCH_MESSAGES.duplicate(first));
        continue;
      }
      seen.set(key, row.line);
      resolved.push({
        line: row.line,
        growerId: grower.id,
        growerUserId: grower.user_id,
        plotId: plot.id,
        productType: plot.product_type,
        quantityKg: row.quantityKg,
        amount: row.amount,
        deliveryDate: row.deliveryDate,
      });
    }
    return resolved;
  }

  private async store(
    user: SignedInUser,
    source: 'FILE' | 'GROWERS',
    fileName: string | null,
    rows: ResolvedRow[],
  ): Promise<PreviewSummary> {
    const now = this.clock();
    const previewId = randomUUID();
    const expiresAt = new Date(now.getTime() + PREVIEW_TTL_MS);
    const totalKg = rows.reduce((sum, r) => sum + r.quantityKg, 0);
    const totalAmount = rows.reduce((sum, r) => sum + r.amount, 0);
    if (!Number.isSafeInteger(totalAmount) || !Number.isSafeInteger(totalKg)) {
      throw fileRefused([
        { line: 0, column: FILE_COLUMNS.amount, reason: 'Le total du fichier est hors limites' },
      ]);
    }
    await this.db.transaction().execute(async (trx) => {
      // Expired, never validated previews go as new ones come.
      await trx
        .deleteFrom('contract_batch_previews')
        .where('expires_at', '<', now)
        .where('parent_id', 'is', null)
        .execute();
      await trx
        .insertInto('contract_batch_previews')
        .values({
          id: previewId,
          owner_user_id: user.id,
          source,
          file_name: fileName,
          row_count: rows.length,
          total_kg: totalKg,
          total_amount: totalAmount,
          created_at: now,
          expires_at: expiresAt,
          parent_id: null,
        })
        .execute();
      for (let i = 0; i < rows.length; i += 1000) {
        await trx
          .insertInto('contract_batch_preview_rows')
          .values(
            rows.slice(i, i + 1000).map((r) => ({
              preview_id: previewId,
              line: r.line,
              grower_id: r.growerId,
              grower_user_id: r.growerUserId,
              plot_id: r.plotId,
              product_type: r.productType,
              quantity_kg: r.quantityKg,
              amount: r.amount,
              delivery_date: r.deliveryDate,
            })),
          )
          .execute();
      }
    });
    return {
      previewId,
      source,
      fileName,
      count: rows.length,
      totalKg,
      totalAmount,
      expiresAt: expiresAt.toISOString(),
      parentId: null,
    };
  }

  /** The preview if the caller may see it (its owner; super admin and admin read it too). */
  async previewOf(
    user: SignedInUser,
    previewId: string,
    purpose: 'read' | 'validate',
  ): Promise<Selectable<BatchesTables['contract_batch_previews']>> {
    const preview = await this.db
      .selectFrom('contract_batch_previews')
      .selectAll()
      .where('id', '=', previewId)
      .executeTakeFirst();
    if (!preview) throw new NotFoundError(BATCH_MESSAGES.previewNotFound);
    if (preview.owner_user_id !== user.id && !(purpose === 'read' && seesAll(user))) {
      throw new ForbiddenError(BATCH_MESSAGES.notYours);
    }
    if (preview.parent_id === null && new Date(preview.expires_at) < this.clock()) {
      throw new NotFoundError(BATCH_MESSAGES.previewExpired);
    }
    return preview;
  }

  /**
   * 'Valider': the parent and its sub-contracts with their holds, in one append, or nothing.
   * The parent's id is the preview's: validating again (a retry, a double click, another tab)
   * finds the parent and answers it, writing nothing.
   */
  async validate(
    user: SignedInUser,
    previewId: string,
    idempotencyKey?: string,
  ): Promise<ParentAnswer> {
    const preview = await this.previewOf(user, previewId, 'validate');
    const rows = await this.db
      .selectFrom('contract_batch_preview_rows')
      .selectAll()
      // The date as ISO text, whatever the pool's date parsing.
      .select(sql<string>`to_char(delivery_date, 'YYYY-MM-DD')`.as('delivery_date'))
      .where('preview_id', '=', previewId)
      .orderBy('line')
      .execute();
    // The growers and plots again: one deactivated or moved since the preview refuses all,
    // and one now out of the aggregator's cluster is a 403.
    const clusterId = clusterOf(user);
    const live = await this.db
      .selectFrom('plots as p')
      .innerJoin('growers as g', 'g.id', 'p.grower_id')
      .select(['p.id', 'p.grower_id', 'g.cluster_id'])
      .where('g.deactivated_at', 'is', null)
      .where(
        'p.id',
        'in',
        rows.length ? rows.map((r) => r.plot_id) : ['00000000-0000-0000-0000-000000000000'],
      )
      .execute();
    if (live.some((p) => p.cluster_id !== clusterId)) {
      throw new ForbiddenError(BATCH_MESSAGES.outOfReach);
    }
    const plotOwner = new Map(live.map((p) => [p.id, p.grower_id]));
    const now = this.clock().toISOString();
    const subs = rows.map((r) => ({ row: r, id: subContractId(previewId, r.line) }));
    if (!this.sms) throw new Error('ContractBatchCommands: no SMS sender to send the codes');
    const sms = this.sms;
    // A validated preview's repeat appends nothing: no code to draw.
    const offers =
      preview.parent_id === null
        ? await this.offersFor(subs.map((s) => ({ id: s.id, growerUserId: s.row.grower_user_id })))
        : new Map<string, { code: string; issue: CodeToIssue }>();
    const reference = `LIVP-${previewId.slice(0, 8).toUpperCase()}`;
    const streams: ValidateStreams = {
      parent: streamRef(parentStream, parentStreamId(previewId)),
      wallet: streamRef(walletStream, walletStreamId(user.wallet_id)),
      ...Object.fromEntries(
        subs.map((s) => [subKey(s.id), streamRef(contractStreamType, contractStreamId(s.id))]),
      ),
    };
    const answer = await handleCommand(this.pipeline, {
      streams,
      idempotency: idempotencyKey
        ? {
            key: `${user.id}:contracts.batches.validate:${idempotencyKey}`,
            fingerprint: validationFingerprint(previewId),
          }
        : undefined,
      metadata: { userId: user.id },
      decide: (states): { writes: CommandWrite[]; result: ParentAnswer } => {
        const { parent, wallet } = states;
        if (parent.exists) {
          return {
            writes: [],
            result: {
              parentId: previewId,
              reference: parent.reference,
              count: parent.subCount,
              totalAmount: parent.totalAmount,
            },
          };
        }
        const total = rows.reduce((sum, r) => sum + Number(r.amount), 0);
        const available = wallet.opened ? wallet.availableBalance : 0;
        if (total > available) throw insufficientBalanceError(total - Math.max(0, available));
        const contractEvents = [];
        const holdEvents = [];
        // Each hold is placed on the wallet as the previous ones left it (the hold ids are
        // new, so only the available balance and the held total move between them).
        let current: WalletState = wallet;
        for (const { row, id } of subs) {
          const created = createDeliveryContract(
            states[subKey(id)]!,
            {
              contractId: id,
              reference: `LIV-${id.slice(0, 8).toUpperCase()}`,
              parentId: previewId,
              growerId: row.grower_id,
              growerUserId: row.grower_user_id,
              plotId: row.plot_id,
              productType: row.product_type as 'CAYENNE_LISSE' | 'PAIN_DE_SUCRE' | null,
              quantityKg: Number(row.quantity_kg),
              amount: Number(row.amount),
              deliveryDate: row.delivery_date,
              acceptanceCode: offers.get(id)?.issue ?? null,
            },
            { userId: user.id, role: user.role_code },
            {
              now,
              availableBalance: current.availableBalance,
              plotOfGrower: plotOwner.get(row.plot_id) === row.grower_id,
            },
          );
          const hold = placeHold(current, {
            holdId: created.result.hold.holdId,
            amount: created.result.hold.amount,
            purpose: created.result.hold.purpose,
          });
          contractEvents.push(...created.writes);
          holdEvents.push(...hold.writes.flatMap((w) => w.events));
          current = {
            ...current,
            held: current.held + created.result.hold.amount,
            availableBalance: current.availableBalance - created.result.hold.amount,
          };
        }
        const totalKg = rows.reduce((sum, r) => sum + Number(r.quantity_kg), 0);
        const parentEvent = ParentContractCreated.parse({
          parentId: previewId,
          reference,
          aggregatorUserId: user.id,
          source: preview.source,
          fileName: preview.file_name,
          subCount: rows.length,
          totalKg,
          totalAmount: total,
          createdBy: user.id,
          createdAt: now,
        });
        return {
          writes: [
            {
              streamId: streams.parent.id,
              events: [{ type: 'ParentContractCreated', data: parentEvent }],
            },
            ...contractEvents,
            { streamId: streams.wallet.id, events: holdEvents },
          ],
          result: { parentId: previewId, reference, count: rows.length, totalAmount: total },
        };
      },
    });
    await this.db
      .updateTable('contract_batch_previews')
      .set({ parent_id: previewId })
      .where('id', '=', previewId)
      .execute();
    // Each grower's offer, as after a single contract's creation: only the codes this call
    // appended (a repeated validation appended none, so sends none).
    for (const { id } of subs) {
      const offer = offers.get(id);
      if (!offer) continue;
      await sendAcceptanceOffer(this.pipeline, sms, {
        contractId: id,
        userId: user.id,
        codeId: offer.issue.codeId,
        code: offer.code,
      });
    }
    return answer;
  }
}

function sortProblems(problems: FileProblem[]): FileProblem[] {
  const order = Object.values(FILE_COLUMNS) as string[];
  return [...problems].sort(
    (a, b) => a.line - b.line || order.indexOf(a.column) - order.indexOf(b.column),
  );
}
