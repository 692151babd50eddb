import { PassThrough } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pgPushPublisher, redisPushPublisher } from '@filiere/projections';
import {
  ForbiddenError,
  narrowDb,
  NotFoundError,
  storableString,
  ValidationError,
} from '@filiere/platform';
import { identityUsers, type IdentityTables } from '../../identity/index.js';
import type { AppDeps } from '../../kernel/app-deps.js';
import { ROLE, type RoleCode } from '../../kernel/roles.js';
import { approve, assign, close, link, propose, reject } from '../commands/exceptions.js';
import type { ReconciliationDeps } from '../commands/context.js';
import { runReconciliation } from '../commands/run.js';
import { DailyCloseRunner, dailyCloseLoop, providerSource } from '../jobs/daily-close.js';
import { importLines } from '../commands/statements.js';
import {
  DEFAULT_WINDOW_MS,
  EXCEPTION_KINDS,
  RESOLUTION_ACTIONS,
  SOURCES,
  type Source,
} from '../domain/index.js';
import {
  getException,
  listDays,
  listExceptions,
  listOwners,
  reconciliationSummary,
} from '../queries.js';
import { reconciliationPush } from '../pushes.js';
import { readersQuery } from '../read-model/projectors.js';
import { writeDayReport } from '../report.js';
import { parseBankCsv } from '../sources/bank-csv.js';
import { parseCamt053 } from '../sources/camt053.js';
import { detectStatementFormat, STATEMENT_FORMATS } from '../sources/detect.js';
import { parseMt940 } from '../sources/mt940.js';
import { fetchOrRefuse, statementFetcher } from '../sources/fetch.js';
import type { BankCsvMapping, ReconciliationTables } from '../tables.js';

const tags = ['reconciliation'];
const security = [{ bearer: [] }];
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Who reads (finance and the platform's auditor) and who acts (finance only). */
export const RECONCILIATION_ROLES = {
  read: [ROLE.SUPER_ADMIN, ROLE.ADMIN, ROLE.ACCOUNTING],
  act: [ROLE.SUPER_ADMIN, ROLE.ADMIN],
  card: [ROLE.SUPER_ADMIN],
} as const satisfies Record<string, readonly RoleCode[]>;

const invalid = 'Entrée non valide';
const required = 'Ce champ est obligatoire';
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Date invalide (AAAA-MM-JJ)')
  // A calendar day that exists (not 2026-02-30), between 2000 and 2999.
  .refine((d) => {
    const t = Date.parse(`${d}T00:00:00Z`);
    return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === d && d >= '2000';
  }, 'Date invalide (AAAA-MM-JJ)');
const source = z.enum(SOURCES, { error: 'Source inconnue' });
const page = z.coerce.number(invalid).int(invalid).min(1, invalid).default(1);
const limit = z.coerce.number(invalid).int(invalid).min(1, invalid).max(100, invalid).default(20);
const note = storableString().trim().max(500, '500 caractères au plus').default('');
const idParams = z.object({ id: z.string().regex(/^[0-9a-f]{32}$/, 'Écart introuvable') });

const figures = z.record(z.string(), z.number());
const dayRow = z.object({
  source: z.string(),
  day: z.string(),
  figures,
  status: z.enum(['RECONCILED', 'UNRECONCILED', 'EXCEPTIONS']),
  openExceptions: z.number().int(),
  reconciledAt: z.string(),
});
const exceptionRow = z.object({
  id: z.string(),
  kind: z.string(),
  source: z.string(),
  day: z.string(),
  direction: z.string(),
  amount: z.number().int(),
  difference: z.number().int(),
  lineKey: z.string().nullable(),
  movementKey: z.string().nullable(),
  reference: z.string().nullable(),
  account: z.string().nullable(),
  status: z.string(),
  ownerUserId: z.string().nullable(),
  ownerName: z.string().nullable(),
  proposal: z.object({ action: z.string(), target: z.string(), proposedBy: z.string() }).nullable(),
  openedAt: z.string(),
  updatedAt: z.string(),
});
const exceptionDetail = exceptionRow.extend({
  linked: z.object({ lineKey: z.string(), movementKey: z.string() }).nullable(),
  history: z.array(
    z.object({
      type: z.string(),
      userId: z.string().nullable(),
      userName: z.string().nullable(),
      note: z.string().nullable(),
      /** The owner an assignment gave. */
      ownerName: z.string().nullable(),
      at: z.string(),
    }),
  ),
});
const column = storableString().trim().max(100, '100 caractères au plus');
const DELIMITER_NAMES = { ',': 'la virgule', ';': 'le point-virgule', '\t': 'la tabulation' };
/**
 * A bank's CSV mapping: each column named exactly as the file's header. A name holding the
 * separator could never be one header, so it is refused on its field.
 */
const mapping = z
  .object({
    delimiter: z.enum([',', ';', '\t'], { error: 'Séparateur inconnu' }),
    date: column.min(1, required),
    dateFormat: z.enum(['ISO', 'DD/MM/YYYY'], { error: 'Format de date inconnu' }),
    amount: column.min(1, required),
    direction: column.optional(),
    reference: column.min(1, required),
    label: column.min(1, required),
    account: column.optional(),
  })
  .superRefine((m, ctx) => {
    for (const field of ['date', 'amount', 'direction', 'reference', 'label', 'account'] as const) {
      if (m[field]?.includes(m.delimiter)) {
        ctx.addIssue({
          code: 'custom',
          path: [field],
          message: `Le nom de la colonne ne peut pas contenir le séparateur (${DELIMITER_NAMES[m.delimiter]})`,
        });
      }
    }
  });
const bankCode = z.string().regex(/^[A-Z0-9_]{1,40}$/, 'Code de banque invalide');
const done = z.object({ exceptionId: z.string() });
/** A file recognised as neither XML nor MT940, without a bank whose CSV mapping would read it. */
const UNKNOWN_FORMAT =
  'Format de relevé non reconnu : importez un MT940, un CAMT.053, ou un CSV avec le code de sa banque';

/**
 * Reconciliation under /api/reconciliation: days, exceptions and their history, the day's
 * .xlsx report and the super admin's card (finance and the platform's auditor read); statement
 * imports, runs and every action on an exception (finance only, the auditor never).
 */
export async function registerReconciliation(app: FastifyInstance & { deps: AppDeps }) {
  const db = narrowDb<ReconciliationTables>()(app.deps.db);
  const users = narrowDb<Pick<IdentityTables, 'users' | 'roles'>>()(app.deps.db);
  const read = narrowDb<ReconciliationTables & Pick<IdentityTables, 'users' | 'roles'>>()(
    app.deps.db,
  );
  const { config } = app.deps;
  const publish = app.deps.redis
    ? redisPushPublisher(app.deps.redis)
    : pgPushPublisher(app.deps.db);
  const deps: ReconciliationDeps = {
    db,
    pipeline: app.commands,
    limits: { maxCommandAmount: config.MAX_COMMAND_AMOUNT, maxBalance: config.MAX_BALANCE },
    clock: app.deps.clock ?? (() => new Date()),
    windowMs: DEFAULT_WINDOW_MS,
  };
  // Without REDIS_URL the API runs the daily close; with it, the worker does (the module's job).
  if (!config.REDIS_URL) {
    const loop = dailyCloseLoop(
      new DailyCloseRunner(
        deps,
        ['BANK', providerSource(config.PAYMENT_PROVIDER)],
        statementFetcher(config),
      ),
      app.deps.logger,
    );
    if (config.NODE_ENV !== 'test') app.addHook('onReady', async () => loop.start());
    app.addHook('onClose', () => loop.stop());
  }
  // An organisation's accountant is not the platform's auditor.
  const platformOnly = (request: FastifyRequest) => {
    const me = request.actor!;
    if (me.role_code === ROLE.ACCOUNTING && me.organization_id) {
      throw new ForbiddenError('Réservé à l’auditeur de la plateforme et aux administrateurs');
    }
    return me;
  };

  await app.register(
    async (scope) => {
      const r = scope.withTypeProvider<ZodTypeProvider>();
      const guard = (roles: readonly RoleCode[]) => {
        const check = scope.requireRoles(...roles);
        return { onRequest: [check], preHandler: [check] };
      };

      r.get(
        '/reconciliation/days',
        {
          schema: {
            tags,
            security,
            summary:
              'Chaque journée rapprochée par source, la plus récente d’abord, avec ses chiffres',
            querystring: z.object({ source: source.optional(), page, limit }),
            response: { 200: z.object({ count: z.number().int(), data: z.array(dayRow) }) },
          },
          ...guard(RECONCILIATION_ROLES.read),
        },
        async (request) => {
          platformOnly(request);
          return listDays(db, request.query);
        },
      );

      r.get(
        '/reconciliation/days/:source/:day/report.xlsx',
        {
          schema: {
            tags,
            security,
            summary: 'Le rapport de rapprochement de la journée en .xlsx (chiffres et écarts)',
            params: z.object({ source, day }),
            response: { 200: z.unknown().describe('the .xlsx file') },
          },
          ...guard(RECONCILIATION_ROLES.read),
        },
        async (request, reply) => {
          platformOnly(request);
          const { source: s, day: d } = request.params;
          const exists = await db
            .selectFrom('reconciliation_days')
            .select('day')
            .where('source', '=', s)
            .where('day', '=', d)
            .executeTakeFirst();
          if (!exists) throw new NotFoundError('Cette journée n’a pas été rapprochée');
          const body = new PassThrough();
          writeDayReport(db, s, d, body).catch((error: unknown) => {
            request.log.error({ err: error }, 'reconciliation report failed');
            body.destroy(error as Error);
          });
          return reply
            .type(XLSX)
            .header('content-disposition', `attachment; filename="rapprochement-${s}-${d}.xlsx"`)
            .send(body);
        },
      );

      r.get(
        '/reconciliation/exceptions',
        {
          schema: {
            tags,
            security,
            summary: 'Les écarts, filtrés par état, source, type et texte (référence, compte)',
            querystring: z.object({
              status: z.enum(['OPEN', 'LINKED', 'RESOLVED', 'CLOSED']).optional(),
              source: source.optional(),
              kind: z.enum(EXCEPTION_KINDS).optional(),
              q: storableString().trim().max(100, '100 caractères au plus').optional(),
              /** `me`: the caller's; `none`: nobody's; else an owner's id. */
              owner: z.union([z.enum(['me', 'none']), z.uuid(invalid)]).optional(),
              page,
              limit,
            }),
            response: { 200: z.object({ count: z.number().int(), data: z.array(exceptionRow) }) },
          },
          ...guard(RECONCILIATION_ROLES.read),
        },
        async (request) => {
          const me = platformOnly(request);
          const { owner, ...rest } = request.query;
          return listExceptions(read, {
            ...rest,
            owner:
              owner === undefined
                ? undefined
                : owner === 'me'
                  ? me.id
                  : owner === 'none'
                    ? null
                    : owner,
          });
        },
      );

      r.get(
        '/reconciliation/exceptions/:id',
        {
          schema: {
            tags,
            security,
            summary: 'Un écart et son historique',
            params: idParams,
            response: { 200: exceptionDetail },
          },
          ...guard(RECONCILIATION_ROLES.read),
        },
        async (request) => {
          platformOnly(request);
          return getException(read, request.params.id);
        },
      );

      r.get(
        '/reconciliation/owners',
        {
          schema: {
            tags,
            security,
            summary:
              'Les personnes à qui confier un écart : super administrateurs et administrateurs actifs',
            response: { 200: z.array(z.object({ id: z.string(), name: z.string() })) },
          },
          ...guard(RECONCILIATION_ROLES.read),
        },
        async (request) => {
          platformOnly(request);
          return listOwners(read);
        },
      );

      r.get(
        '/reconciliation/summary',
        {
          schema: {
            tags,
            security,
            summary:
              'Carte du super administrateur : montant non rapproché, plus ancien écart ouvert',
            response: {
              200: z.object({
                openExceptions: z.number().int(),
                unreconciledAmount: z.number().int(),
                oldestOpenDay: z.string().nullable(),
              }),
            },
          },
          ...guard(RECONCILIATION_ROLES.card),
        },
        async () => reconciliationSummary(db),
      );

      r.get(
        '/reconciliation/bank-mappings',
        {
          schema: {
            tags,
            security,
            summary:
              'Les correspondances de colonnes des relevés CSV, par banque (recherche par code)',
            querystring: z.object({
              q: storableString().trim().max(40, '40 caractères au plus').optional(),
              page,
              limit,
            }),
            response: {
              200: z.object({
                count: z.number().int(),
                data: z.array(z.object({ bankCode: z.string(), mapping })),
              }),
            },
          },
          ...guard(RECONCILIATION_ROLES.read),
        },
        async (request) => {
          platformOnly(request);
          const { q, page: p, limit: n } = request.query;
          let query = db.selectFrom('reconciliation_bank_mappings');
          if (q)
            query = query.where('bank_code', 'ilike', `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
          const [rows, total] = await Promise.all([
            query
              .select(['bank_code', 'mapping'])
              .orderBy('bank_code')
              .limit(n)
              .offset((p - 1) * n)
              .execute(),
            query.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
          ]);
          return {
            count: Number(total.n),
            data: rows.map((row) => ({
              bankCode: row.bank_code,
              mapping: row.mapping,
            })),
          };
        },
      );

      r.put(
        '/reconciliation/bank-mappings/:bankCode',
        {
          schema: {
            tags,
            security,
            summary: 'Enregistre la correspondance de colonnes du relevé CSV d’une banque',
            params: z.object({ bankCode }),
            body: mapping,
            response: { 200: z.object({ bankCode: z.string(), mapping }) },
          },
          ...guard(RECONCILIATION_ROLES.act),
        },
        async (request) => {
          const me = request.actor!;
          const value = JSON.stringify(request.body);
          await db
            .insertInto('reconciliation_bank_mappings')
            .values({ bank_code: request.params.bankCode, mapping: value, updated_by: me.id })
            .onConflict((oc) =>
              oc
                .column('bank_code')
                .doUpdateSet({ mapping: value, updated_by: me.id, updated_at: new Date() }),
            )
            .execute();
          // The readers' lists refresh live; a lost push is only logged.
          try {
            const readers = await readersQuery(read).execute();
            if (readers.length) {
              await publish([
                reconciliationPush({
                  type: 'reconciliation.changed',
                  userIds: readers.map((r) => r.id),
                }),
              ]);
            }
          } catch (error) {
            request.log.warn({ err: error }, 'bank mapping push not published');
          }
          return { bankCode: request.params.bankCode, mapping: request.body };
        },
      );

      r.post(
        '/reconciliation/statements',
        {
          schema: {
            tags,
            security,
            summary:
              'Importe le relevé de la banque (MT940, CAMT.053, ou CSV lu avec la correspondance de la banque ; sans format, reconnu à son contenu) ; un relevé importé deux fois ne change rien',
            body: z.object({
              /** The bank's statement, or KKiaPay's dashboard export (CSV only). */
              source: z.enum(['BANK', 'KKIAPAY']).default('BANK'),
              /** Absent: recognised from the content. */
              format: z.enum(STATEMENT_FORMATS).optional(),
              content: z.string().min(1, required).max(1_500_000, 'Relevé trop volumineux'),
              bankCode: bankCode.optional(),
            }),
            response: {
              200: z.object({
                recorded: z.number().int(),
                known: z.number().int(),
                conflicts: z.array(z.string()),
                days: z.array(z.string()),
              }),
            },
          },
          ...guard(RECONCILIATION_ROLES.act),
        },
        async (request) => {
          const { source: from, content, bankCode: code } = request.body;
          const format = request.body.format ?? detectStatementFormat(content);
          if (from === 'KKIAPAY' && format !== 'CSV') {
            throw new ValidationError('L’export de KKiaPay se lit en CSV', {
              fields: { format: 'L’export de KKiaPay se lit en CSV' },
            });
          }
          let lines;
          if (format === 'CAMT053') lines = parseCamt053(content);
          else if (format === 'MT940') lines = parseMt940(content);
          else {
            if (!code && request.body.format === undefined) {
              throw new ValidationError(UNKNOWN_FORMAT);
            }
            if (!code) {
              throw new ValidationError(required, { fields: { bankCode: required } });
            }
            const saved = await db
              .selectFrom('reconciliation_bank_mappings')
              .select('mapping')
              .where('bank_code', '=', code)
              .executeTakeFirst();
            if (!saved) {
              throw new NotFoundError('Aucune correspondance de colonnes pour cette banque');
            }
            lines = parseBankCsv(content, saved.mapping as BankCsvMapping);
          }
          return importLines(deps, from, lines, request.actor!.id);
        },
      );

      r.post(
        '/reconciliation/fetch',
        {
          schema: {
            tags,
            security,
            summary:
              'Relève par son API le relevé du jour d’une source (FedaPay : transactions et paiements sortants) ; relevé deux fois, il ne change rien',
            body: z.object({ source, day }),
            response: {
              200: z.object({
                recorded: z.number().int(),
                known: z.number().int(),
                conflicts: z.array(z.string()),
                days: z.array(z.string()),
              }),
            },
          },
          ...guard(RECONCILIATION_ROLES.act),
        },
        async (request) => {
          const { source: s, day: d } = request.body;
          const lines = await fetchOrRefuse(config, s, d);
          return importLines(deps, s, lines, request.actor!.id);
        },
      );

      r.post(
        '/reconciliation/run',
        {
          schema: {
            tags,
            security,
            summary:
              'Rapproche une source jusqu’au jour donné (clôture du jour, écarts des jours précédents)',
            body: z.object({ source, day }),
            response: {
              200: z.object({
                source: z.string(),
                day: z.string(),
                matched: z.number().int(),
                unmatchedLines: z.number().int(),
                unmatchedMovements: z.number().int(),
                opened: z.number().int(),
              }),
            },
          },
          ...guard(RECONCILIATION_ROLES.act),
        },
        async (request) => runReconciliation(deps, request.body.source as Source, request.body.day),
      );

      const action = <B extends z.ZodType>(
        path: string,
        summary: string,
        body: B,
        run: (
          me: NonNullable<FastifyRequest['actor']>,
          id: string,
          body: z.infer<B>,
        ) => Promise<{ exceptionId: string }>,
      ) =>
        r.post(
          `/reconciliation/exceptions/:id/${path}`,
          {
            schema: { tags, security, summary, params: idParams, body, response: { 200: done } },
            ...guard(RECONCILIATION_ROLES.act),
          },
          async (request) => run(request.actor!, request.params.id, request.body as z.infer<B>),
        );

      action(
        'assign',
        'Confie l’écart à un administrateur',
        z.object({ ownerUserId: z.uuid(invalid) }),
        async (me, id, body) => {
          const owner = await users
            .selectFrom(identityUsers().as('u'))
            .innerJoin('roles as r', 'r.id', 'u.role_id')
            .select(['u.id', 'r.code'])
            .where('u.id', '=', body.ownerUserId)
            .where('u.deleted_at', 'is', null)
            .executeTakeFirst();
          if (!owner) throw new NotFoundError('Utilisateur introuvable');
          return assign(deps, me, id, { userId: owner.id, role: owner.code });
        },
      );
      action(
        'link',
        'Rapproche l’écart à la main de sa contrepartie (ligne du relevé ou mouvement du registre)',
        z.object({
          counterpartKey: storableString().trim().min(1, required).max(300),
          note,
        }),
        (me, id, body) => link(deps, me, id, body),
      );
      action(
        'propose',
        'Propose la commande du registre qui résout l’écart (approuvée par une autre personne)',
        z.object({
          action: z.enum(RESOLUTION_ACTIONS),
          target: storableString().trim().min(1, required).max(100),
          note,
        }),
        (me, id, body) => propose(deps, me, id, body),
      );
      action(
        'approve',
        'Approuve la résolution proposée par une autre personne : la commande du registre est exécutée',
        z.object({}),
        (me, id) => approve(deps, me, id),
      );
      action(
        'reject',
        'Refuse la résolution proposée : l’écart reste ouvert',
        z.object({ note }),
        (me, id, body) => reject(deps, me, id, body.note),
      );
      action(
        'close',
        'Clôt l’écart avec un motif, sans toucher au registre',
        z.object({ reason: storableString().trim().min(1, required).max(500) }),
        (me, id, body) => close(deps, me, id, body.reason),
      );
    },
    { prefix: '/api' },
  );
}
