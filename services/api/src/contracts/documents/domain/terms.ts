import { defineEvent, type EventDefinition, type StreamType } from '@filiere/event-store';
import { BusinessRuleError, ForbiddenError, ValidationError } from '@filiere/platform';
import { z } from 'zod';
import { ROLE } from '../../../kernel/roles.js';

/**
 * The delivery contract's terms: the clauses printed on every delivery contract, a template
 * the super admin edits. Stream `contractterms-delivery` (its own category). Each publication
 * is a new version (1, 2, …); every version stays in the log. Version 1 is the built-in text
 * below until the first publication, which records it as version 1 and the edit as version 2,
 * so a contract made before any edit prints the same version number ever after.
 *
 * A contract prints the version in force when it was created: the last publication whose
 * ledger position is below the position of the contract's creation (the log is one chain, so
 * its order is the order in which both were committed).
 *
 * A clause's body may name a contract's facts between braces (PLACEHOLDERS); any other name
 * is refused, so a printed contract never shows an unfilled brace.
 */
export const TERMS_CATEGORY = 'contractterms';
export const DELIVERY_TERMS_STREAM = `${TERMS_CATEGORY}-delivery`;

/** The facts a clause may name, and what each prints. */
export const PLACEHOLDERS = {
  reference: 'la référence du contrat (LIV-…)',
  quantite: 'la quantité contractée, en tonnes',
  produit: 'la variété d’ananas',
  prix_kg: 'le prix par kilogramme, en F CFA',
  montant: 'le montant du contrat, en F CFA',
  date_livraison: 'la date de livraison (JJ/MM/AAAA)',
  campagne: 'la campagne (l’année de la date de livraison)',
} as const;
export type Placeholder = keyof typeof PLACEHOLDERS;

export const clauseSchema = z.object({
  title: z.string().trim().min(1).max(120),
  body: z.string().trim().min(1).max(4000),
});
export type Clause = z.infer<typeof clauseSchema>;

export const ContractTermsPublished = z.object({
  version: z.number().int().positive(),
  clauses: z.array(clauseSchema).min(1).max(30),
  publishedBy: z.string().min(1),
  publishedAt: z.iso.datetime(),
});
export type TermsPublishedData = z.infer<typeof ContractTermsPublished>;

export const termsEvents: EventDefinition<string, any>[] = [
  defineEvent({ type: 'ContractTermsPublished', version: 1, schema: ContractTermsPublished }),
];

/** The built-in clauses: version 1 until the super admin publishes another. */
export const DEFAULT_CLAUSES: readonly Clause[] = [
  {
    title: 'Objet',
    body:
      'Le producteur s’engage à livrer à l’agrégateur {quantite} d’ananas ({produit}) de la ' +
      'parcelle désignée ci-dessus, pour la campagne {campagne}, au prix de {prix_kg} le ' +
      'kilogramme, soit {montant} pour la quantité contractée.',
  },
  {
    title: 'Qualité',
    body:
      'Les fruits livrés sont de la variété convenue, sains, mûrs à point, sans pourriture ni ' +
      'meurtrissure. Les fruits non conformes peuvent être refusés à la pesée ; seul le poids ' +
      'accepté est payé.',
  },
  {
    title: 'Livraison',
    body:
      'La livraison a lieu après l’acceptation du contrat et au plus tard le {date_livraison}. ' +
      'Le poids livré est pesé par l’agrégateur en présence du producteur ou de sa coopérative.',
  },
  {
    title: 'Prix et paiement',
    body:
      'La livraison vaut le poids accepté multiplié par le prix au kilogramme, arrondi au franc ' +
      'inférieur. Le montant du contrat est bloqué sur le portefeuille de l’agrégateur dès la ' +
      'création du contrat ; le paiement est versé au portefeuille du producteur, ou à son ' +
      'numéro mobile money lorsqu’il en a un.',
  },
  {
    title: 'Hors délais',
    body:
      'Un contrat accepté qui n’est pas livré le {date_livraison} passe « Hors délais » le ' +
      'lendemain : il ne peut plus être livré ni payé.',
  },
  {
    title: 'Annulation',
    body:
      'L’agrégateur peut annuler le contrat tant que la livraison n’est pas enregistrée ; le ' +
      'montant bloqué lui est rendu. Un contrat livré ne peut plus être annulé.',
  },
  {
    title: 'Acceptation',
    body:
      'Le contrat engage les parties lorsque le producteur l’accepte, lui-même ou par sa ' +
      'coopérative. Chaque étape est inscrite au registre de Filière ; l’historique ci-dessous ' +
      'et le code QR permettent à chacun de la vérifier.',
  },
];

export interface TermsState {
  /** The version in force (1 when nothing was published: the built-in text). */
  version: number;
  clauses: readonly Clause[];
  /** Whether the stream holds any event (the first publication opens it with version 1). */
  recorded: boolean;
}

export const initialTermsState = (): TermsState => ({
  version: 1,
  clauses: DEFAULT_CLAUSES,
  recorded: false,
});

export function evolveTerms(state: TermsState, event: { type: string; data: unknown }): TermsState {
  if (event.type !== 'ContractTermsPublished') return state;
  const d = event.data as TermsPublishedData;
  return { version: d.version, clauses: d.clauses, recorded: true };
}

export const termsStream: StreamType<TermsState> = {
  category: TERMS_CATEGORY,
  initialState: initialTermsState,
  evolve: evolveTerms,
};

export const TERMS_MESSAGES = {
  forbidden: 'Seul le super administrateur peut modifier le modèle de contrat',
  unchanged: 'Ce texte est celui de la version en vigueur : modifiez au moins une clause',
  unknownPlaceholder: (name: string) =>
    `La clause nomme {${name}}, qui n’existe pas : utilisez ${Object.keys(PLACEHOLDERS)
      .map((p) => `{${p}}`)
      .join(', ')}`,
} as const;

/** The names between braces in a text. */
export function placeholdersOf(text: string): string[] {
  return [...text.matchAll(/\{([^{}]*)\}/g)].map((m) => m[1]!);
}

/** A clause's body with each placeholder replaced by its value. */
export function fillClause(body: string, values: Record<Placeholder, string>): string {
  return body.replace(/\{([^{}]*)\}/g, (whole, name: string) =>
    name in values ? values[name as Placeholder] : whole,
  );
}

/** The opening of the stream: the built-in text as version 1 (see the header). */
export function openTerms(state: TermsState, at: string): { type: string; data: unknown }[] {
  if (state.recorded) return [];
  const data: TermsPublishedData = {
    version: 1,
    clauses: [...DEFAULT_CLAUSES],
    publishedBy: 'system',
    publishedAt: at,
  };
  return [{ type: 'ContractTermsPublished', data }];
}

/**
 * Publishing a new version: the super admin only; every placeholder known; a text equal to
 * the version in force is refused (a version is a change).
 */
export function publishTerms(
  state: TermsState,
  input: { clauses: readonly Clause[] },
  actor: { userId: string; role: string },
  now: string,
): { event: { type: 'ContractTermsPublished'; data: TermsPublishedData }; version: number } {
  if (actor.role !== ROLE.SUPER_ADMIN) throw new ForbiddenError(TERMS_MESSAGES.forbidden);
  for (const clause of input.clauses) {
    for (const name of placeholdersOf(`${clause.title} ${clause.body}`)) {
      if (!(name in PLACEHOLDERS)) {
        throw new ValidationError(TERMS_MESSAGES.unknownPlaceholder(name));
      }
    }
  }
  const same =
    input.clauses.length === state.clauses.length &&
    input.clauses.every(
      (c, i) => c.title === state.clauses[i]!.title && c.body === state.clauses[i]!.body,
    );
  if (same) throw new BusinessRuleError(TERMS_MESSAGES.unchanged);
  const version = state.version + 1;
  return {
    event: {
      type: 'ContractTermsPublished',
      data: {
        version,
        clauses: input.clauses.map((c) => ({ title: c.title, body: c.body })),
        publishedBy: actor.userId,
        publishedAt: now,
      },
    },
    version,
  };
}
