import { sql, type Kysely } from 'kysely';
import type { EventStoreTables } from '@filiere/event-store';
import { ForbiddenError, narrowDb, NotFoundError } from '@filiere/platform';
import type { ActorsTables } from '../../actors/index.js';
import type { IdentityTables } from '../../identity/index.js';
import type { SignedInUser } from '../../kernel/actor.js';
import { ROLE } from '../../kernel/roles.js';
import { contractStreamId } from '../domain/index.js';
import { isoDay } from '../queries.js';
import type { ContractsTables } from '../tables.js';
import { fillClause, type Placeholder } from '../documents/domain/terms.js';
import { trailOf } from '../documents/domain/trail.js';
import { verificationUrl } from '../documents/qr.js';
import { termsAt, termsVersions } from '../documents/terms-read.js';
import { DocumentReferences, type VerificationTables } from '../documents/verification.js';
import {
  formatDay,
  formatFcfa,
  formatTonnes,
  pricePerKg,
  PRODUCT_LABELS,
  renderContractPdf,
  type ContractPdfData,
} from './contract-pdf.js';
import { renderGrowerCardPdf } from './card-pdf.js';
import { signPdfLink, verifyPdfLink } from './links.js';
import { renderReceiptPdf, type ReceiptPdfData } from './receipt-pdf.js';
import { renderGrowerStatementPdf } from './statement-pdf.js';
import type { GrowerStatements, GrowerStatementTables } from './statement.js';
import { identityUsers, maskNumber } from '../../identity/index.js';
import { walletStreamId } from '../../wallet/index.js';

export type ContractPdfTables = Pick<ContractsTables, 'delivery_contracts'> &
  Pick<IdentityTables, 'users' | 'organizations'> &
  Pick<ActorsTables, 'growers' | 'plots' | 'cooperatives'> &
  VerificationTables &
  GrowerStatementTables;

type TermsTables = Pick<EventStoreTables, 'events'>;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A receipt asked for before the contract is paid. */
export const RECEIPT_NOT_PAID = 'Ce contrat n’est pas encore payé : il n’a pas de reçu';
const fullName = (u: { firstname: string; lastname: string }) =>
  `${u.firstname} ${u.lastname}`.trim();

/**
 * Contract PDFs: who may have one (the contract detail's reach, widened to the parties), the
 * signed link that serves it, and the data printed on it.
 */
export class ContractPdfs {
  private readonly clock: () => Date;
  /** Renders the statement links (kind `statement`) this route also serves. */
  private readonly statements: GrowerStatements | undefined;
  /** The web app's address, which the QR codes' verification pages are under. */
  private readonly publicUrl: string;
  private readonly references: DocumentReferences;

  constructor(
    private readonly db: Kysely<ContractPdfTables>,
    private readonly secret: string,
    options: { clock?: () => Date; statements?: GrowerStatements; publicUrl?: string } = {},
  ) {
    this.clock = options.clock ?? (() => new Date());
    this.statements = options.statements;
    this.publicUrl = options.publicUrl ?? 'http://localhost:3000';
    this.references = new DocumentReferences(narrowDb<VerificationTables>()(db));
  }

  /**
   * GET contracts/smarts-download/{id}: `{ url }` of a 10-minute link to the PDF. Super admin
   * and admin any contract; the aggregator its own; the grower its own; the grower's
   * cooperative's user its growers'. 404 unknown, 403 out of reach.
   */
  async link(user: SignedInUser, contractId: string): Promise<{ url: string }> {
    const id = await this.reachable(user, contractId);
    const token = signPdfLink(this.secret, { kind: 'contract', id }, this.clock());
    return { url: `/api/contracts/pdf/${token}` };
  }

  /**
   * GET contracts/receipt-download/{id}: `{ url }` of a 10-minute link to the payment receipt
   * of a paid (COMPLETED) contract; the same reach as its PDF. 404 when not paid yet.
   */
  async receiptLink(user: SignedInUser, contractId: string): Promise<{ url: string }> {
    const id = await this.reachable(user, contractId);
    const paid = await this.db
      .selectFrom('delivery_contracts')
      .select('id')
      .where('id', '=', id)
      .where('status', '=', 'COMPLETED')
      .executeTakeFirst();
    if (!paid) throw new NotFoundError(RECEIPT_NOT_PAID);
    const token = signPdfLink(this.secret, { kind: 'receipt', id }, this.clock());
    return { url: `/api/contracts/pdf/${token}` };
  }

  /** The contract's id when `user` may read its documents; 404 unknown, 403 out of reach. */
  private async reachable(user: SignedInUser, contractId: string): Promise<string> {
    const id = contractId.toLowerCase();
    if (!UUID.test(id)) throw new NotFoundError('Contrat introuvable');
    const contract = await this.db
      .selectFrom('delivery_contracts as dc')
      .innerJoin('growers as g', 'g.id', 'dc.grower_id')
      .leftJoin('cooperatives as c', 'c.organization_id', 'g.cooperative_id')
      .select([
        'dc.id',
        'dc.aggregator_user_id',
        'dc.grower_user_id',
        'g.cooperative_id',
        'c.user_id as cooperative_user_id',
      ])
      .where('dc.id', '=', id)
      .executeTakeFirst();
    if (!contract) throw new NotFoundError('Contrat introuvable');
    if (!reaches(user, contract)) throw new ForbiddenError('Ce contrat ne vous appartient pas');
    return id;
  }

  /**
   * GET contracts/pdf/{token}: the PDF the (valid, unexpired) token names — a contract's, a
   * grower's statement over the signed period, or a grower's card.
   */
  async byToken(token: string): Promise<{ filename: string; pdf: Buffer }> {
    const subject = verifyPdfLink(this.secret, token, this.clock());
    if (subject.kind === 'statement') {
      if (!this.statements) throw new NotFoundError('Relevé introuvable');
      const statement = await this.statements.data(subject.id, subject);
      // One reference per grower, period and state of the ledger: the same print, the same code.
      const head = await this.references.head();
      const reference = await this.references.issue({
        kind: 'STATEMENT',
        subjectKey: `statement:${subject.id}:${subject.from}:${subject.to}:${head?.position ?? 0}`,
        subjectId: subject.id,
        period: { from: subject.from, to: subject.to },
        ledger: head,
      });
      const pdf = await renderGrowerStatementPdf(statement, {
        now: this.clock(),
        verification: {
          reference,
          url: verificationUrl(this.publicUrl, reference),
          ledger: head,
        },
      });
      return {
        filename: `releve-${statement.grower.reference}-${subject.from}-${subject.to}.pdf`,
        pdf,
      };
    }
    if (subject.kind === 'receipt') {
      const receipt = await this.receiptData(subject.id);
      const pdf = await renderReceiptPdf(receipt, { now: this.clock() });
      return { filename: `recu-${receipt.reference}.pdf`, pdf };
    }
    if (subject.kind === 'card') {
      if (!this.statements) throw new NotFoundError('Producteur introuvable');
      const card = await this.statements.cardData(subject.id);
      return { filename: `carte-${card.reference}.pdf`, pdf: await renderGrowerCardPdf(card) };
    }
    const data = await this.data(subject.id);
    const pdf = await renderContractPdf(data, { now: this.clock() });
    return { filename: `contrat-${data.reference}.pdf`, pdf };
  }

  /**
   * What a payment receipt prints: the figures of the contract's `DeliveryContractSettled`
   * (the ledger's, not a projection's), the names from the read tables, and its public
   * reference (one per contract: `receipt:<id>`, at the settlement's ledger point).
   */
  async receiptData(contractId: string): Promise<ReceiptPdfData> {
    const settled = await this.db
      .selectFrom('events')
      .select(['data', 'position', 'hash', 'recorded_at'])
      .where('stream_id', '=', contractStreamId(contractId))
      .where('type', '=', 'DeliveryContractSettled')
      .orderBy('version', 'asc')
      .limit(1)
      .executeTakeFirst();
    if (!settled) throw new NotFoundError(RECEIPT_NOT_PAID);
    const event = settled.data as {
      deliveredKg: number;
      deliveredAmount: number;
      shortfall: number;
      growerNet: number;
      recoveries: { kind: string; creditorUserId: string; amount: number }[];
      payoutId?: string | null;
      settledAt: string;
    };
    const row = await this.db
      .selectFrom('delivery_contracts as dc')
      .innerJoin(identityUsers().as('a'), 'a.id', 'dc.aggregator_user_id')
      .leftJoin('organizations as ao', 'ao.id', 'a.organization_id')
      .innerJoin(identityUsers().as('gu'), 'gu.id', 'dc.grower_user_id')
      .innerJoin('growers as g', 'g.id', 'dc.grower_id')
      .select([
        'dc.reference',
        'dc.delivered_on',
        'a.firstname as a_firstname',
        'a.lastname as a_lastname',
        'ao.denomination as a_organization',
        'gu.firstname as g_firstname',
        'gu.lastname as g_lastname',
        'gu.wallet_id as g_wallet_id',
        'g.reference as g_reference',
      ])
      .where('dc.id', '=', contractId)
      .executeTakeFirst();
    if (!row) throw new NotFoundError('Contrat introuvable');
    // Where the net went, as the ledger's payout names it (the number may have changed since).
    const payout =
      event.payoutId && row.g_wallet_id
        ? await this.db
            .selectFrom('events')
            .select(sql<string>`data->>'destination'`.as('destination'))
            .where('stream_id', '=', walletStreamId(String(row.g_wallet_id)))
            .where('type', '=', 'WithdrawalRequested')
            .where(sql<string>`data->>'withdrawalId'`, '=', event.payoutId)
            .executeTakeFirst()
        : undefined;
    const creditorIds = [...new Set(event.recoveries.map((r) => r.creditorUserId))];
    const creditors =
      creditorIds.length === 0
        ? []
        : await this.db
            .selectFrom(identityUsers().as('u'))
            .leftJoin('organizations as o', 'o.id', 'u.organization_id')
            .select(['u.id', 'u.firstname', 'u.lastname', 'o.denomination'])
            .where('u.id', 'in', creditorIds)
            .execute();
    const creditorName = (userId: string) => {
      const c = creditors.find((u) => u.id === userId);
      return c ? (c.denomination ?? fullName(c)) : 'un créancier';
    };
    const ledger = {
      position: Number(settled.position),
      hash: settled.hash,
      recordedAt: new Date(settled.recorded_at).toISOString(),
    };
    const reference = await this.references.issue({
      kind: 'RECEIPT',
      subjectKey: `receipt:${contractId}`,
      subjectId: contractId,
      ledger,
    });
    return {
      reference: row.reference,
      grower: {
        name: fullName({ firstname: row.g_firstname, lastname: row.g_lastname }),
        reference: row.g_reference,
      },
      aggregator: {
        name: fullName({ firstname: row.a_firstname, lastname: row.a_lastname }),
        organization: row.a_organization,
      },
      deliveredKg: event.deliveredKg,
      deliveredOn: row.delivered_on === null ? null : isoDay(row.delivered_on),
      deliveredAmount: event.deliveredAmount,
      shortfall: event.shortfall,
      recoveries: event.recoveries.map((r) => ({
        kind: r.kind,
        creditor: creditorName(r.creditorUserId),
        amount: r.amount,
      })),
      growerNet: event.growerNet,
      paidTo: payout
        ? `son numéro mobile money ${maskNumber(payout.destination)}`
        : 'son portefeuille Filière',
      paidAt: event.settledAt,
      ledger,
      verification: { reference, url: verificationUrl(this.publicUrl, reference) },
    };
  }

  /** What the PDF prints, read from the projections and the ledger (the stream's first event). */
  async data(contractId: string): Promise<ContractPdfData> {
    const row = await this.db
      .selectFrom('delivery_contracts as dc')
      .innerJoin(identityUsers().as('a'), 'a.id', 'dc.aggregator_user_id')
      .leftJoin('organizations as ao', 'ao.id', 'a.organization_id')
      .innerJoin(identityUsers().as('gu'), 'gu.id', 'dc.grower_user_id')
      .innerJoin('growers as g', 'g.id', 'dc.grower_id')
      .leftJoin('organizations as co', 'co.id', 'g.cooperative_id')
      .leftJoin('cooperatives as c', 'c.organization_id', 'g.cooperative_id')
      .leftJoin('plots as p', 'p.id', 'dc.plot_id')
      .select([
        'dc.id',
        'dc.reference',
        'dc.status',
        'dc.aggregator_user_id',
        'dc.grower_user_id',
        'dc.quantity_kg',
        'dc.amount',
        'dc.delivery_date',
        'dc.delivered_kg',
        'dc.delivered_on',
        'dc.delivered_amount',
        'dc.recovered_amount',
        'dc.grower_net',
        'dc.created_at',
        'dc.product_type',
        'a.firstname as a_firstname',
        'a.lastname as a_lastname',
        'a.phone as a_phone',
        'ao.denomination as a_organization',
        'ao.ifu as a_ifu',
        'co.ifu as cooperative_ifu',
        'g.cooperative_id',
        'c.user_id as cooperative_user_id',
        'gu.firstname as g_firstname',
        'gu.lastname as g_lastname',
        'gu.phone as g_phone',
        'g.reference as g_reference',
        'co.denomination as cooperative',
        'p.name as plot_name',
        'p.product_type as plot_product',
        'p.area_sown as plot_area',
      ])
      .where('dc.id', '=', contractId)
      .executeTakeFirst();
    if (!row) throw new NotFoundError('Contrat introuvable');
    const events = await this.db
      .selectFrom('events')
      .select(['type', 'data', 'position', 'hash', 'recorded_at'])
      .where('stream_id', '=', contractStreamId(contractId))
      .orderBy('version', 'asc')
      .execute();
    const first = events[0];
    const last = events.at(-1);
    const terms = first
      ? await termsAt(narrowDb<TermsTables>()(this.db), Number(first.position))
      : (await termsVersions(narrowDb<TermsTables>()(this.db)))[0]!;
    const steps = trailOf(
      events.map((e) => ({
        type: e.type,
        data: (e.data ?? {}) as Record<string, unknown>,
        position: Number(e.position),
        hash: e.hash,
        recordedAt: new Date(e.recorded_at).toISOString(),
      })),
    );
    const actorIds = [...new Set(steps.flatMap((s) => (s.actorUserId ? [s.actorUserId] : [])))];
    const actors =
      actorIds.length === 0
        ? []
        : await this.db
            .selectFrom(identityUsers().as('u'))
            .select(['u.id', 'u.firstname', 'u.lastname'])
            .where(
              'u.id',
              'in',
              actorIds.filter((id) => UUID.test(id)),
            )
            .execute();
    const partyOf = (userId: string): string | null => {
      if (userId === row.aggregator_user_id) return 'pour l’agrégateur';
      if (userId === row.grower_user_id) return 'le producteur';
      if (row.cooperative_user_id === userId) return 'pour la coopérative';
      return null;
    };
    const byOf = (userId: string | null): string => {
      if (!userId) return 'Filière (automatique)';
      const user = actors.find((a) => a.id === userId);
      if (!user) return 'Filière (automatique)';
      const party = partyOf(userId);
      return party ? `${fullName(user)}, ${party}` : fullName(user);
    };
    const reference = await this.references.issue({
      kind: 'CONTRACT',
      subjectKey: `contract:${row.id}`,
      subjectId: row.id,
    });
    const quantityKg = Number(row.quantity_kg);
    const amount = Number(row.amount);
    const deliveryDate = isoDay(row.delivery_date);
    const productType = row.plot_product ?? row.product_type;
    const values: Record<Placeholder, string> = {
      reference: row.reference,
      quantite: formatTonnes(quantityKg),
      produit: (productType && PRODUCT_LABELS[productType]) || 'variété convenue',
      prix_kg: formatFcfa(pricePerKg(amount, quantityKg)),
      montant: formatFcfa(amount),
      date_livraison: formatDay(deliveryDate),
      campagne: deliveryDate.slice(0, 4),
    };
    return {
      contractId: row.id,
      reference: row.reference,
      status: row.status,
      aggregator: {
        name: fullName({ firstname: row.a_firstname, lastname: row.a_lastname }),
        organization: row.a_organization,
        ifu: row.a_ifu,
        phone: row.a_phone,
      },
      grower: {
        name: fullName({ firstname: row.g_firstname, lastname: row.g_lastname }),
        reference: row.g_reference,
        phone: row.g_phone,
      },
      cooperative: row.cooperative ? { name: row.cooperative, ifu: row.cooperative_ifu } : null,
      plot: {
        name: row.plot_name ?? 'Parcelle',
        productType,
        areaSown: row.plot_area === null ? null : String(row.plot_area),
      },
      quantityKg,
      amount,
      deliveryDate,
      delivery:
        row.delivered_kg === null
          ? null
          : {
              quantityKg: Number(row.delivered_kg),
              deliveredOn: row.delivered_on === null ? null : isoDay(row.delivered_on),
              amount: row.delivered_amount === null ? null : Number(row.delivered_amount),
              recovered: row.recovered_amount === null ? null : Number(row.recovered_amount),
              growerNet: row.grower_net === null ? null : Number(row.grower_net),
            },
      createdAt: new Date(row.created_at).toISOString(),
      terms: {
        version: terms.version,
        clauses: terms.clauses.map((c) => ({
          title: fillClause(c.title, values),
          body: fillClause(c.body, values),
        })),
      },
      trail: steps.map((s) => ({
        label: s.label,
        by: byOf(s.actorUserId),
        at: s.at,
        phoneEnding: s.phoneEnding,
      })),
      ledger: last
        ? {
            position: Number(last.position),
            hash: last.hash,
            recordedAt: new Date(last.recorded_at).toISOString(),
          }
        : null,
      verification: { reference, url: verificationUrl(this.publicUrl, reference) },
    };
  }
}

function reaches(
  user: SignedInUser,
  contract: {
    aggregator_user_id: string;
    grower_user_id: string;
    cooperative_id: string | null;
    cooperative_user_id: string | null;
  },
): boolean {
  switch (user.role_code) {
    case ROLE.SUPER_ADMIN:
    case ROLE.ADMIN:
      return true;
    case ROLE.INDUSTRIAL:
      return contract.aggregator_user_id === user.id;
    case ROLE.GROWER:
      return contract.grower_user_id === user.id;
    case ROLE.FARMER_ORGANIZATION:
      // The cooperative's representative: its user, or a member of its organisation.
      return (
        contract.cooperative_id !== null &&
        (contract.cooperative_user_id === user.id ||
          user.organization_id === contract.cooperative_id)
      );
    default:
      return false;
  }
}
