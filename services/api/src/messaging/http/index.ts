import rateLimit from '@fastify/rate-limit';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ForbiddenError, narrowDb } from '@filiere/platform';
import { pgPushPublisher, redisPushPublisher } from '@filiere/projections';
import {
  AcceptanceCodes,
  DeliveryContractCommands,
  type ContractFactsTables,
} from '../../contracts/index.js';
import {
  createSms,
  SMS_KINDS,
  SMS_STATUSES,
  SmsOutboxStore,
  userLoader,
} from '../../identity/index.js';
import type { HttpRegistration } from '../../kernel/module.js';
import { ROLE } from '../../kernel/roles.js';
import {
  TWILIO_INBOUND_PATH,
  TWILIO_STATUS_PATH,
  twilioDeliveryFailure,
  twilioReportStatus,
  validTwilioSignature,
} from '../gateway/twilio.js';
import { preferencesRoutes } from './preferences.js';
import { InboundReplies } from '../inbound/inbound.js';
import { pushSmsChanged } from '../pushes.js';

/** Who sees every SMS and what they cost. */
export const SMS_READERS = [ROLE.SUPER_ADMIN, ROLE.ADMIN] as const;

/** Delivery reports accepted per minute from one address (Twilio's bursts fit far below it). */
export const REPORTS_PER_MINUTE = 600;

const statusReport = z.object({
  MessageSid: z.string().regex(/^[A-Z]{2}[0-9a-fA-F]{32}$/, 'Identifiant de message invalide'),
  MessageStatus: z.string().min(1).max(40),
  ErrorCode: z.string().max(10).optional(),
});

const inboundMessage = z.object({
  MessageSid: z.string().regex(/^[A-Z]{2}[0-9a-fA-F]{32}$/, 'Identifiant de message invalide'),
  From: z.string().min(1).max(20),
  Body: z.string().max(1600).default(''),
});

/** Twilio's answer to an incoming message when the reply goes through the outbox: none. */
const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';

const smsItem = z.object({
  id: z.number(),
  recipient: z.string(),
  recipientName: z.string().nullable(),
  userId: z.string().nullable(),
  kind: z.enum(SMS_KINDS),
  status: z.enum(SMS_STATUSES),
  text: z.string().nullable(),
  failure: z.string().nullable(),
  attempts: z.number(),
  segments: z.number().nullable(),
  seasonId: z.number().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  failedAt: z.string().nullable(),
});

const smsQuery = z.object({
  page: z.coerce.number('Nombre invalide').int('Nombre invalide').min(1).default(1),
  limit: z.coerce.number('Nombre invalide').int('Nombre invalide').min(1).max(200).default(20),
  q: z.string().trim().max(100, '100 caractères au plus').optional(),
  status: z.enum(SMS_STATUSES, 'Statut inconnu').optional(),
  kind: z.enum(SMS_KINDS, 'Type de message inconnu').optional(),
});

const tally = {
  messages: z.number(),
  segments: z.number(),
  queued: z.number(),
  sent: z.number(),
  delivered: z.number(),
  failed: z.number(),
};
const tallyOf = (row: {
  messages: number;
  segments: number;
  queued: number;
  sent: number;
  delivered: number;
  failed: number;
}) => ({
  messages: row.messages,
  segments: row.segments,
  queued: row.queued,
  sent: row.sent,
  delivered: row.delivered,
  failed: row.failed,
});

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * `GET /api/messaging/sms` and `/api/messaging/sms/counts` (super admin, admin), and with
 * `SMS_GATEWAY=twilio` the public `POST /api/messaging/twilio/status`: Twilio's delivery
 * reports, refused (403) unless `X-Twilio-Signature` is Twilio's HMAC of the URL it called
 * and its parameters, keyed with the auth token; rate-limited per address.
 */
export const registerMessaging: HttpRegistration = async (app) => {
  const { config, logger } = app.deps;
  const store = SmsOutboxStore.of(app.deps.db);
  const readers = app.requireRoles(...SMS_READERS);

  await app.register(
    async (scope) => {
      const r = scope.withTypeProvider<ZodTypeProvider>();
      r.get(
        '/messaging/sms',
        {
          schema: {
            tags: ['messaging'],
            security: [{ bearer: [] }],
            summary:
              'Les SMS envoyés aux membres, les plus récents d’abord : état (en file, en cours, envoyé, remis, échoué et pourquoi), tentatives ; le texte des codes n’est jamais montré',
            querystring: smsQuery,
            response: { 200: z.object({ data: z.array(smsItem), count: z.number() }) },
          },
          onRequest: readers,
          preHandler: readers,
        },
        async (request) => {
          const { rows, total } = await store.list({
            page: request.query.page,
            limit: request.query.limit,
            ...(request.query.q ? { q: request.query.q } : {}),
            ...(request.query.status ? { status: request.query.status } : {}),
            ...(request.query.kind ? { kind: request.query.kind } : {}),
          });
          return {
            count: total,
            data: rows.map((row) => ({
              id: row.id,
              recipient: row.recipient,
              recipientName: row.user_name,
              userId: row.user_id,
              kind: (SMS_KINDS as readonly string[]).includes(row.kind)
                ? (row.kind as (typeof SMS_KINDS)[number])
                : 'notice',
              status: row.status,
              text: row.text,
              failure: row.failure,
              attempts: row.attempts,
              segments: row.segments,
              seasonId: row.season_id,
              createdAt: row.created_at.toISOString(),
              sentAt: iso(row.sent_at),
              deliveredAt: iso(row.delivered_at),
              failedAt: iso(row.failed_at),
            })),
          };
        },
      );
      r.get(
        '/messaging/sms/counts',
        {
          schema: {
            tags: ['messaging'],
            security: [{ bearer: [] }],
            summary:
              'Nombre de SMS par état et segments facturés, par membre (les 100 premiers) et par saison',
            response: {
              200: z.object({
                byUser: z.array(z.object({ userId: z.string(), name: z.string(), ...tally })),
                bySeason: z.array(z.object({ seasonId: z.number(), ...tally })),
              }),
            },
          },
          onRequest: readers,
          preHandler: readers,
        },
        async () => {
          const { byUser, bySeason } = await store.counts();
          return {
            byUser: byUser.map((u) => ({ userId: u.user_id!, name: u.name, ...tallyOf(u) })),
            bySeason: bySeason.map((s) => ({ seasonId: s.season_id!, ...tallyOf(s) })),
          };
        },
      );
      preferencesRoutes(scope, app.deps.db);
    },
    { prefix: '/api' },
  );

  if (config.SMS_GATEWAY !== 'twilio') return;
  const authToken = config.TWILIO_AUTH_TOKEN!;
  const publicUrl = config.PUBLIC_URL.replace(/\/$/, '');
  const publish = app.deps.redis
    ? redisPushPublisher(app.deps.redis)
    : pgPushPublisher(app.deps.db);
  const sms = createSms(config, app.deps.db, logger);
  const replies = InboundReplies.of(
    app.deps.db,
    {
      sms,
      contracts: new DeliveryContractCommands(
        narrowDb<ContractFactsTables>()(app.deps.db),
        app.commands,
        app.deps.clock,
        sms,
        AcceptanceCodes.fromSecret(config.JWT_SECRET),
      ),
      loadUser: userLoader(app.deps.db),
    },
    logger,
    app.deps.clock,
  );
  const signedByTwilio =
    (refusal: string) =>
    async (request: { body: unknown; headers: Record<string, unknown>; url: string }) => {
      const params = (request.body ?? {}) as Record<string, string>;
      const signature = request.headers['x-twilio-signature'];
      const url = `${publicUrl}${request.url}`;
      if (
        !validTwilioSignature(
          authToken,
          typeof signature === 'string' ? signature : undefined,
          url,
          params,
        )
      ) {
        throw new ForbiddenError(refusal);
      }
    };
  await app.register(async (scope) => {
    await scope.register(rateLimit, {
      global: true,
      max: REPORTS_PER_MINUTE,
      timeWindow: 60_000,
    });
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 16_384 },
      (_request, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(body as string)));
      },
    );
    scope.withTypeProvider<ZodTypeProvider>().post(
      TWILIO_STATUS_PATH,
      {
        schema: {
          tags: ['messaging'],
          security: [],
          summary:
            'Rapport de remise d’un SMS par Twilio (signé X-Twilio-Signature) ; 403 si la signature n’est pas celle de Twilio',
          querystring: z.object({ ref: z.coerce.number().int().positive().optional() }),
          body: statusReport,
          response: { 200: z.object({ received: z.boolean() }) },
        },
        // The signature is checked before the body is validated: an unsigned caller learns
        // nothing of what a report should hold.
        preValidation: signedByTwilio('Signature du rapport de remise invalide'),
      },
      async (request) => {
        const { MessageSid, MessageStatus, ErrorCode } = request.body;
        const status = twilioReportStatus(MessageStatus);
        if (!status) return { received: false };
        const found = await store.report({
          gateway: 'twilio',
          gatewayId: MessageSid,
          ...(request.query.ref !== undefined ? { reference: request.query.ref } : {}),
          status,
          ...(status === 'failed'
            ? { failure: twilioDeliveryFailure(MessageStatus, ErrorCode) }
            : {}),
        });
        if (!found) logger.warn({ sid: MessageSid }, 'delivery report for an unknown sms');
        else await pushSmsChanged(app.deps.db, publish);
        return { received: found };
      },
    );
    scope.withTypeProvider<ZodTypeProvider>().post(
      TWILIO_INBOUND_PATH,
      {
        schema: {
          tags: ['messaging'],
          security: [],
          summary:
            'SMS reçu d’un producteur par Twilio (signé X-Twilio-Signature) : OUI <code> (accepte le contrat offert avec ce code), SOLDE, RELEVE ou une aide, répondus par SMS au seul numéro enregistré du producteur ; 403 si la signature n’est pas celle de Twilio',
          body: inboundMessage,
        },
        preValidation: signedByTwilio('Signature du message reçu invalide'),
      },
      async (request, reply) => {
        const answered = await replies.answer({
          id: request.body.MessageSid,
          from: request.body.From,
          body: request.body.Body,
        });
        if (answered) await pushSmsChanged(app.deps.db, publish);
        return reply.type('text/xml').send(EMPTY_TWIML);
      },
    );
  });
};
