import { createHmac, timingSafeEqual } from 'node:crypto';
import { ForbiddenError } from '@filiere/platform';

/** How long a signed PDF link works (the viewer opens it at once; a download soon after). */
export const PDF_LINK_TTL_MS = 10 * 60 * 1000;

/**
 * What a signed link opens: a delivery contract's PDF or its payment receipt (the id is the
 * contract's), a grower's statement over a period (the id is the grower's; days are Benin's,
 * inclusive), or a grower's card (the id is the grower's).
 */
export type PdfLinkSubject =
  | { kind: 'contract' | 'receipt' | 'card'; id: string }
  | { kind: 'statement'; id: string; from: string; to: string };

const EXPIRED = 'Ce lien a expiré ou n’est pas valide : rouvrez le PDF depuis le contrat';

const KINDS = { c: 'contract', r: 'receipt', s: 'statement', g: 'card' } as const satisfies Record<
  string,
  PdfLinkSubject['kind']
>;
const CODES: Record<PdfLinkSubject['kind'], string> = {
  contract: 'c',
  receipt: 'r',
  statement: 's',
  card: 'g',
};
const UUID_HEX = /^[0-9a-f]{32}$/;
/** A statement's day in the token: YYYYMMDD (a real calendar day). */
const COMPACT_DAY = /^\d{8}$/;

const compactDay = (day: string) => day.replace(/-/g, '');
function isoOfCompact(compact: string): string | null {
  if (!COMPACT_DAY.test(compact)) return null;
  const iso = `${compact.slice(0, 4)}-${compact.slice(4, 6)}-${compact.slice(6)}`;
  const parsed = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== iso ? null : iso;
}

function signature(secret: string, payload: string): Buffer {
  // A purpose prefix: this HMAC never equals one made with the same secret for something else.
  // 128 bits of HMAC-SHA256 are kept: the token must fit a URL segment (Fastify's 100 chars).
  return createHmac('sha256', secret)
    .update(`contract-pdf-link:${payload}`, 'utf8')
    .digest()
    .subarray(0, 16);
}

/**
 * A short-lived link token bound to one subject, short enough for one path segment:
 * `<kind code>-<uuid as 32 hex>[-<from YYYYMMDD>-<to YYYYMMDD>]-<expiry, epoch ms base 36>.
 * <base64url HMAC-SHA256(JWT secret, that payload), first 16 bytes>` (a contract's token about
 * 66 characters, a statement's about 84). Whoever holds it may read that one PDF until the
 * expiry.
 */
export function signPdfLink(secret: string, subject: PdfLinkSubject, now: Date): string {
  const hex = subject.id.toLowerCase().replace(/-/g, '');
  const period =
    subject.kind === 'statement' ? `-${compactDay(subject.from)}-${compactDay(subject.to)}` : '';
  const payload = `${CODES[subject.kind]}-${hex}${period}-${(now.getTime() + PDF_LINK_TTL_MS).toString(36)}`;
  return `${payload}.${signature(secret, payload).toString('base64url')}`;
}

/** The subject of a valid, unexpired token; 403 (French) for anything else. */
export function verifyPdfLink(secret: string, token: string, now: Date): PdfLinkSubject {
  const [payload, mac, extra] = token.split('.');
  if (!payload || !mac || extra !== undefined) throw new ForbiddenError(EXPIRED);
  const given = Buffer.from(mac, 'base64url');
  const expected = signature(secret, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new ForbiddenError(EXPIRED);
  }
  const parts = payload.split('-');
  const kind = parts[0] ? KINDS[parts[0] as keyof typeof KINDS] : undefined;
  const hex = parts[1];
  const exp36 = parts.at(-1);
  const exp = exp36 && /^[0-9a-z]+$/.test(exp36) ? parseInt(exp36, 36) : NaN;
  const size = kind === 'statement' ? 5 : 3;
  if (!kind || parts.length !== size || !hex || !UUID_HEX.test(hex)) {
    throw new ForbiddenError(EXPIRED);
  }
  if (!Number.isSafeInteger(exp) || exp <= now.getTime()) throw new ForbiddenError(EXPIRED);
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  if (kind !== 'statement') return { kind, id };
  const from = isoOfCompact(parts[2]!);
  const to = isoOfCompact(parts[3]!);
  if (!from || !to || from > to) throw new ForbiddenError(EXPIRED);
  return { kind, id, from, to };
}
