import { createHmac, timingSafeEqual } from 'node:crypto';
import { ForbiddenError } from '@filiere/platform';

/** How long a signed PDF link works (the viewer opens it at once; a download soon after). */
export const PDF_LINK_TTL_MS = 10 * 60 * 1000;

/** What a signed link opens: a delivery contract's PDF (the id is the contract's). */
export interface PdfLinkSubject {
  kind: 'contract';
  id: string;
}

const EXPIRED = 'Ce lien a expiré ou n’est pas valide : rouvrez le PDF depuis le contrat';

const KINDS = { c: 'contract' } as const satisfies Record<string, PdfLinkSubject['kind']>;
const CODES: Record<PdfLinkSubject['kind'], string> = { contract: 'c' };
const UUID_HEX = /^[0-9a-f]{32}$/;

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
 * `<kind code>-<uuid as 32 hex>-<expiry, epoch ms base 36>.<base64url HMAC-SHA256(JWT secret,
 * that payload), first 16 bytes>`. Whoever holds it may read that one PDF until the expiry.
 */
export function signPdfLink(secret: string, subject: PdfLinkSubject, now: Date): string {
  const hex = subject.id.toLowerCase().replace(/-/g, '');
  const payload = `${CODES[subject.kind]}-${hex}-${(now.getTime() + PDF_LINK_TTL_MS).toString(36)}`;
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
  const [code, hex, exp36, more] = payload.split('-');
  const kind = code ? KINDS[code as keyof typeof KINDS] : undefined;
  const exp = exp36 ? parseInt(exp36, 36) : NaN;
  if (!kind || !hex || !UUID_HEX.test(hex) || more !== undefined || !Number.isSafeInteger(exp)) {
    throw new ForbiddenError(EXPIRED);
  }
  if (exp <= now.getTime()) throw new ForbiddenError(EXPIRED);
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return { kind, id };
}
