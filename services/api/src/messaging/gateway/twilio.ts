import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { GatewayMessage, LookupOutcome, SendOutcome, SmsGateway } from './gateway.js';

export interface TwilioOptions {
  baseUrl: string;
  accountSid: string;
  authToken: string;
  /** The sender: an alphanumeric sender ID or an E.164 number. */
  from: string;
  /** The status callback URL of a message (its outbox id as `ref`). */
  statusCallback: (reference: number) => string;
  /** How long one request may take before it counts as unanswered (default 10 s). */
  timeoutMs?: number;
}

/** The path of the delivery reports, under `/api` (http/). */
export const TWILIO_STATUS_PATH = '/api/messaging/twilio/status';
/** Where Twilio posts the messages growers send to Filière's number (its messaging webhook). */
export const TWILIO_INBOUND_PATH = '/api/messaging/twilio/inbound';

const created = z.object({
  sid: z.string().min(1),
  status: z.string(),
  num_segments: z.union([z.string(), z.number()]).nullish(),
});
const errorBody = z.object({ code: z.number().optional(), message: z.string().optional() });
const listed = z.object({
  messages: z.array(
    z.object({
      sid: z.string(),
      body: z.string(),
      date_created: z.string(),
      num_segments: z.union([z.string(), z.number()]).nullish(),
    }),
  ),
});

const segmentsOf = (value: string | number | null | undefined): number | undefined => {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : undefined;
};

/**
 * French reasons of Twilio's refusals the admin may meet (error codes of the Messages
 * resource); any other code is shown with Twilio's own message.
 */
const REFUSALS: Record<number, string> = {
  21211: 'Numéro de destinataire invalide',
  21408: 'Envoi vers ce pays non autorisé sur le compte de la passerelle',
  21610: 'Le destinataire a bloqué les messages de cet expéditeur',
  21612: 'Ce numéro ne peut pas être joint depuis cet expéditeur',
  21614: 'Ce numéro n’est pas un numéro mobile',
  21617: 'Message trop long',
};

/**
 * Twilio's Messaging API (REST, 2010-04-01): `POST /Accounts/{sid}/Messages.json`, form
 * encoded (To, From, Body, StatusCallback), HTTP Basic with the account SID and its auth
 * token; 201 with the message's `sid`. 4xx answers carry `{code, message}`: 429 (too many
 * requests) and 401/403 (credentials, a configuration fault an operator fixes) are retried,
 * the other 4xx are the message's own fault and fail it; 5xx and no answer are retried.
 * Twilio takes no client idempotency key, so a message whose request got no answer is looked
 * up (`GET Messages.json?To=…`, newest first) by its text and time before it is sent again.
 */
export function twilioGateway(options: TwilioOptions): SmsGateway {
  const base = `${options.baseUrl.replace(/\/$/, '')}/2010-04-01/Accounts/${options.accountSid}`;
  const auth = `Basic ${Buffer.from(`${options.accountSid}:${options.authToken}`).toString('base64')}`;
  const timeoutMs = options.timeoutMs ?? 10_000;

  async function call(url: string, init: RequestInit): Promise<Response> {
    return fetch(url, {
      ...init,
      headers: { ...init.headers, authorization: auth, accept: 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
    });
  }

  /** Whether a failed fetch never left this machine (nothing can have been sent). */
  const neverSent = (error: unknown): boolean => {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    return code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN';
  };

  const refusal = async (response: Response): Promise<string> => {
    const parsed = errorBody.safeParse(await response.json().catch(() => ({})));
    const code = parsed.success ? parsed.data.code : undefined;
    if (code !== undefined && REFUSALS[code]) return `${REFUSALS[code]} (Twilio ${code})`;
    const message = parsed.success ? parsed.data.message : undefined;
    return `Refusé par la passerelle (HTTP ${response.status}${code ? `, Twilio ${code}` : ''}${message ? ` : ${message}` : ''})`;
  };

  return {
    name: 'twilio',

    async send(message: GatewayMessage): Promise<SendOutcome> {
      const body = new URLSearchParams({
        To: message.to,
        From: options.from,
        Body: message.text,
        StatusCallback: options.statusCallback(message.reference),
      });
      let response: Response;
      try {
        response = await call(`${base}/Messages.json`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body,
        });
      } catch (error) {
        const sent = !neverSent(error);
        return {
          outcome: 'retry',
          reason: sent ? 'Passerelle sans réponse (délai dépassé)' : 'Passerelle injoignable',
          uncertain: sent,
        };
      }
      if (response.status === 200 || response.status === 201) {
        const parsed = created.safeParse(await response.json().catch(() => undefined));
        if (!parsed.success) {
          // Taken (2xx) but unreadable: the next attempt looks it up rather than send again.
          return {
            outcome: 'retry',
            reason: 'Réponse illisible de la passerelle',
            uncertain: true,
          };
        }
        const segments = segmentsOf(parsed.data.num_segments);
        return { outcome: 'accepted', id: parsed.data.sid, ...(segments ? { segments } : {}) };
      }
      if (response.status === 429) {
        await response.body?.cancel();
        return { outcome: 'retry', reason: 'Passerelle saturée (HTTP 429)', uncertain: false };
      }
      if (response.status === 401 || response.status === 403) {
        await response.body?.cancel();
        return {
          outcome: 'retry',
          reason: `Identifiants de la passerelle refusés (HTTP ${response.status})`,
          uncertain: false,
        };
      }
      if (response.status >= 400 && response.status < 500) {
        return { outcome: 'rejected', reason: await refusal(response) };
      }
      await response.body?.cancel();
      return {
        outcome: 'retry',
        reason: `Passerelle indisponible (HTTP ${response.status})`,
        // A 5xx may come after the message was taken: look it up before sending again.
        uncertain: true,
      };
    },

    async lookup(message): Promise<LookupOutcome> {
      const query = new URLSearchParams({ To: message.to, PageSize: '50' });
      let response: Response;
      try {
        response = await call(`${base}/Messages.json?${query}`, { method: 'GET' });
      } catch {
        return { outcome: 'unknown', reason: 'Passerelle sans réponse (vérification)' };
      }
      if (!response.ok) {
        await response.body?.cancel();
        return {
          outcome: 'unknown',
          reason: `Passerelle indisponible (vérification, HTTP ${response.status})`,
        };
      }
      const parsed = listed.safeParse(await response.json().catch(() => undefined));
      if (!parsed.success)
        return { outcome: 'unknown', reason: 'Réponse illisible de la passerelle' };
      // Twilio's clock and ours may differ a little: a minute's margin.
      const since = message.since.getTime() - 60_000;
      const match = parsed.data.messages.find(
        (m) => m.body === message.text && Date.parse(m.date_created) >= since,
      );
      if (!match) return { outcome: 'absent' };
      const segments = segmentsOf(match.num_segments);
      return { outcome: 'found', id: match.sid, ...(segments ? { segments } : {}) };
    },
  };
}

/**
 * Twilio's request signature: HMAC-SHA1, keyed with the auth token, of the full URL Twilio
 * called followed by each POST parameter's name and value, sorted by name, base64.
 */
export function twilioSignature(
  authToken: string,
  url: string,
  params: Record<string, string>,
): string {
  const data = Object.keys(params)
    .sort()
    .reduce((acc, key) => acc + key + params[key], url);
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

/** Whether `signature` (the `X-Twilio-Signature` header) is Twilio's for this request. */
export function validTwilioSignature(
  authToken: string,
  signature: string | undefined,
  url: string,
  params: Record<string, string>,
): boolean {
  if (!signature) return false;
  const expected = Buffer.from(twilioSignature(authToken, url, params));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/**
 * A status callback's `MessageStatus` as the outbox records it: Twilio's intermediate states
 * (queued, accepted, sending, sent) are `sent`; `delivered`; `undelivered` and `failed` fail
 * the message with its `ErrorCode`. Undefined for states the outbox does not record.
 */
export function twilioReportStatus(status: string): 'sent' | 'delivered' | 'failed' | undefined {
  switch (status) {
    case 'queued':
    case 'accepted':
    case 'sending':
    case 'sent':
      return 'sent';
    case 'delivered':
      return 'delivered';
    case 'undelivered':
    case 'failed':
      return 'failed';
    default:
      return undefined;
  }
}

/** The French reason of an undelivered message (Twilio's delivery error codes). */
export function twilioDeliveryFailure(status: string, errorCode: string | undefined): string {
  const known: Record<string, string> = {
    '30003': 'Téléphone du destinataire injoignable (éteint ou hors réseau)',
    '30004': 'Message bloqué par le destinataire',
    '30005': 'Numéro inconnu ou inactif',
    '30006': 'Numéro fixe ou opérateur injoignable',
    '30007': 'Message filtré par l’opérateur',
    '30008': 'Erreur inconnue de l’opérateur',
  };
  const reason = errorCode ? known[errorCode] : undefined;
  if (reason) return `${reason} (Twilio ${errorCode})`;
  const what = status === 'undelivered' ? 'Non remis par l’opérateur' : 'Échec de l’envoi';
  return errorCode ? `${what} (Twilio ${errorCode})` : what;
}
