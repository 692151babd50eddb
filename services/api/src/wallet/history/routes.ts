import { PassThrough } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import { ForbiddenError, NotFoundError, narrowDb, storableString } from '@filiere/platform';
import type { HttpRegistration } from '../../kernel/module.js';
import { ROLE, type RoleCode } from '../../kernel/roles.js';
import type { IdentityTables } from '../../identity/index.js';
import { balanceAt, statementOf } from './point-in-time.js';
import { writeStatementXlsx } from './statement-xlsx.js';
import type { WalletTables } from '../tables.js';
import type { WalletHistoryTables } from './tables.js';
import { identityUsers } from '../../identity/index.js';

const tags = ['wallet'];
const security = [{ bearer: [] }];

const listOf = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), count: z.number() });

/** `%q%` for ILIKE, with the wildcards of `q` escaped. */
const likePattern = (q: string): string => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Who reads any wallet's history: the administrators and the auditor (read-only). */
export const HISTORY_READERS_OF_ANY_WALLET: readonly RoleCode[] = [
  ROLE.SUPER_ADMIN,
  ROLE.ADMIN,
  ROLE.ACCOUNTING,
];

type HistoryDb = WalletHistoryTables &
  Pick<IdentityTables, 'users' | 'roles'> &
  Pick<WalletTables, 'wallet_balances'>;

const walletParams = z.object({
  walletId: z.uuid({ error: 'Identifiant de portefeuille invalide' }),
});

const instant = z.iso.datetime({
  offset: true,
  error: 'Instant invalide : date et heure ISO 8601 attendues (ex. 2026-11-27T10:00:00Z)',
});
const day = z.iso.date({ error: 'Date invalide (AAAA-MM-JJ)' });

const statementQuery = z
  .object({
    from: day,
    to: day,
    page: z.coerce.number({ error: 'Page invalide' }).int().min(1).default(1),
    limit: z.coerce.number({ error: 'Limite invalide' }).int().min(1).max(200).default(20),
  })
  .refine((q) => q.from <= q.to, {
    path: ['to'],
    message: 'La date de fin doit suivre la date de début',
  });

const balances = z.object({ balance: z.number(), availableBalance: z.number() });

const balanceAnswer = z.object({
  walletId: z.string(),
  at: z.string(),
  balance: z.number(),
  availableBalance: z.number(),
  position: z.number().nullable(),
});

const statementAnswer = z.object({
  walletId: z.string(),
  owner: z.object({ firstname: z.string(), lastname: z.string() }),
  from: z.string(),
  to: z.string(),
  opening: balances,
  closing: balances,
  credits: z.number(),
  debits: z.number(),
  movements: z.array(
    z.object({
      position: z.number(),
      recordedAt: z.string(),
      type: z.string(),
      reference: z.string().nullable(),
      amount: z.number(),
      availableAmount: z.number(),
      balance: z.number(),
      availableBalance: z.number(),
    }),
  ),
  count: z.number(),
  page: z.number(),
  limit: z.number(),
});

const accountsQuery = z.object({
  q: storableString().trim().max(100, { error: 'Au plus 100 caractères' }).optional(),
  page: z.coerce.number({ error: 'Page invalide' }).int().min(1).default(1),
  limit: z.coerce.number({ error: 'Limite invalide' }).int().min(1).max(100).default(10),
});

const accountRow = z.object({
  walletId: z.string(),
  userId: z.string(),
  firstname: z.string(),
  lastname: z.string(),
  email: z.string().nullable(),
  role: z.string(),
  balance: z.number(),
  availableBalance: z.number(),
});

/**
 * Whether `actor` reads every wallet: the administrators, and the platform's auditor — a
 * ROLE_ACCOUNTING account outside any organisation. An organisation's accountant (staff an
 * aggregator or an SFD names) reads its own wallet and its organisation's members' only.
 */
export function readsEveryWallet(actor: {
  role_code: string;
  organization_id: string | null;
}): boolean {
  if (actor.role_code === ROLE.ACCOUNTING) return actor.organization_id === null;
  return HISTORY_READERS_OF_ANY_WALLET.includes(actor.role_code as RoleCode);
}

/** The owner of `walletId` (404 when no user holds it); 403 unless the caller may read it. */
async function readableWallet(
  db: Kysely<HistoryDb>,
  request: FastifyRequest,
  walletId: string,
): Promise<{ firstname: string; lastname: string }> {
  const actor = request.actor!;
  const owner = await db
    .selectFrom(identityUsers().as('users'))
    .select(['firstname', 'lastname', 'organization_id'])
    // On the uuid column (its unique index): `wallet_id::text = …` read every user (a
    // sequential scan, about a millisecond with 5,000 users, on every balance or statement).
    .where('wallet_id', '=', walletId)
    .executeTakeFirst();
  const own = String(actor.wallet_id) === walletId;
  const organisationOf =
    actor.role_code === ROLE.ACCOUNTING &&
    actor.organization_id !== null &&
    owner?.organization_id === actor.organization_id;
  if (!own && !organisationOf && !readsEveryWallet(actor)) {
    throw new ForbiddenError('Ce portefeuille ne vous appartient pas');
  }
  if (!owner) throw new NotFoundError('Portefeuille introuvable');
  return { firstname: owner.firstname ?? '', lastname: owner.lastname ?? '' };
}

/**
 * The wallet's history under /api: the balances at an instant, the statement between two
 * days (on screen and as .xlsx), and the wallets an auditor or administrator may open. A user
 * reads its own wallet; administrators and the auditor (ROLE_ACCOUNTING) read every wallet.
 * Read-only: nothing here appends.
 */
export const registerWalletHistory: HttpRegistration = async (app) => {
  const db = narrowDb<HistoryDb>()(app.deps.db);
  const history = narrowDb<WalletHistoryTables>()(app.deps.db);
  const anyWallet = app.requireRoles(...HISTORY_READERS_OF_ANY_WALLET);

  await app.register(
    async (scope) => {
      const r = scope.withTypeProvider<ZodTypeProvider>();

      r.get(
        '/wallet/:walletId/balance',
        {
          schema: {
            tags,
            security,
            summary:
              'Solde et solde disponible d’un portefeuille à un instant (après chacun de ses événements enregistrés jusqu’à cet instant inclus) ; le titulaire, les administrateurs et l’auditeur',
            params: walletParams,
            querystring: z.object({ at: instant }),
            response: { 200: balanceAnswer },
          },
          onRequest: app.authenticate,
          preHandler: app.authenticate,
        },
        async (request) => {
          await readableWallet(db, request, request.params.walletId);
          return balanceAt(history, request.params.walletId, request.query.at);
        },
      );

      r.get(
        '/wallet/:walletId/statement',
        {
          schema: {
            tags,
            security,
            summary:
              'Relevé d’un portefeuille du jour `from` au jour `to` inclus (jours du Bénin) : solde d’ouverture, mouvements (paginés), solde de clôture',
            params: walletParams,
            querystring: statementQuery,
            response: { 200: statementAnswer },
          },
          onRequest: app.authenticate,
          preHandler: app.authenticate,
        },
        async (request) => {
          const owner = await readableWallet(db, request, request.params.walletId);
          const { from, to, page, limit } = request.query;
          return {
            ...(await statementOf(history, request.params.walletId, { from, to }, { page, limit })),
            owner,
          };
        },
      );

      r.get(
        '/wallet/:walletId/statement.xlsx',
        {
          schema: {
            tags,
            security,
            summary: 'Le relevé du portefeuille en .xlsx (toutes les lignes, en-têtes en français)',
            params: walletParams,
            querystring: z.object({ from: day, to: day }).refine((q) => q.from <= q.to, {
              path: ['to'],
              message: 'La date de fin doit suivre la date de début',
            }),
            response: { 200: z.unknown().describe('the .xlsx file') },
          },
          onRequest: app.authenticate,
          preHandler: app.authenticate,
        },
        async (request, reply) => {
          const owner = await readableWallet(db, request, request.params.walletId);
          const { from, to } = request.query;
          const body = new PassThrough();
          writeStatementXlsx(history, request.params.walletId, owner, { from, to }, body).catch(
            (error: unknown) => {
              request.log.error({ err: error }, 'statement xlsx failed');
              body.destroy(error as Error);
            },
          );
          return reply
            .type(XLSX)
            .header(
              'content-disposition',
              `attachment; filename="releve-${request.params.walletId.slice(0, 8)}-${from}-${to}.xlsx"`,
            )
            .send(body);
        },
      );

      r.get(
        '/wallet/accounts',
        {
          schema: {
            tags,
            security,
            summary:
              'Les portefeuilles et leurs titulaires, recherche par nom, e-mail ou téléphone (administrateurs et auditeur ; le comptable d’une organisation : ceux de ses membres)',
            querystring: accountsQuery,
            response: { 200: listOf(accountRow) },
          },
          onRequest: anyWallet,
          preHandler: anyWallet,
        },
        async (request) => {
          const { q, page, limit } = request.query;
          const actor = request.actor!;
          let query = db
            .selectFrom(identityUsers().as('users'))
            .innerJoin('roles', 'roles.id', 'users.role_id')
            .leftJoin('wallet_balances', (j) =>
              j.on(sql`wallet_balances.wallet_id`, '=', sql`users.wallet_id::text`),
            )
            .where('users.deleted_at', 'is', null);
          // An organisation's accountant: its organisation's members only.
          if (!readsEveryWallet(actor)) {
            query = query.where('users.organization_id', '=', actor.organization_id ?? '');
          }
          if (q) {
            const like = likePattern(q);
            query = query.where((eb) =>
              eb.or([
                eb(sql`users.firstname || ' ' || users.lastname`, 'ilike', like),
                eb(sql`users.lastname || ' ' || users.firstname`, 'ilike', like),
                eb('users.email', 'ilike', like),
                eb('users.phone', 'ilike', like),
              ]),
            );
          }
          const total = await query
            .select(sql<string>`count(*)::text`.as('n'))
            .executeTakeFirstOrThrow();
          const rows = await query
            .select([
              sql<string>`users.wallet_id::text`.as('wallet_id'),
              'users.id',
              'users.firstname',
              'users.lastname',
              'users.email',
              'roles.code',
              sql<string>`coalesce(wallet_balances.balance, 0)::text`.as('balance'),
              sql<string>`coalesce(wallet_balances.available_balance, 0)::text`.as('available'),
            ])
            .orderBy('users.lastname')
            .orderBy('users.firstname')
            .orderBy('users.id')
            .limit(limit)
            .offset((page - 1) * limit)
            .execute();
          return {
            data: rows.map((u) => ({
              walletId: u.wallet_id,
              userId: u.id,
              firstname: u.firstname ?? '',
              lastname: u.lastname ?? '',
              email: u.email,
              role: u.code,
              balance: Number(u.balance),
              availableBalance: Number(u.available),
            })),
            count: Number(total.n),
          };
        },
      );
    },
    { prefix: '/api' },
  );
};
