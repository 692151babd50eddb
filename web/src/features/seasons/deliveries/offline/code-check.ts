import type { DeliveryRow } from '../api/deliveries.js';

/** What the server gives to check a request's code without it (PBKDF2-SHA256, own salt). */
export interface CodeCheck {
  algorithm: 'PBKDF2-SHA256';
  iterations: number;
  salt: string;
  hash: string;
}

export interface OfflineRequest extends DeliveryRow {
  codeCheck: CodeCheck;
}

/**
 * A code as the grower reads it out: six digits typed on the keypad are `AGW_` + the digits;
 * otherwise the text, trimmed and in capitals (the server's normalization).
 */
export function normalizeCode(typed: string): string {
  const text = typed.trim().toUpperCase();
  return /^\d{6}$/.test(text) ? `AGW_${text}` : text;
}

const fromBase64 = (text: string): Uint8Array<ArrayBuffer> =>
  Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

function toBase64(bytes: ArrayBuffer): string {
  let text = '';
  for (const byte of new Uint8Array(bytes)) text += String.fromCharCode(byte);
  return btoa(text);
}

/** PBKDF2-SHA256 of the normalized code with the check's salt and iterations (WebCrypto). */
export async function deriveCheck(code: string, check: CodeCheck): Promise<string> {
  const subtle = globalThis.crypto.subtle;
  const key = await subtle.importKey(
    'raw',
    new TextEncoder().encode(normalizeCode(code)),
    'PBKDF2',
    false,
    ['deriveBits'],
  );
  const bits = await subtle.deriveBits(
    { name: 'PBKDF2', hash: 'SHA-256', salt: fromBase64(check.salt), iterations: check.iterations },
    key,
    256,
  );
  return toBase64(bits);
}

/**
 * The kept request whose code is `typed`, or null: the code is derived with each request's
 * salt (in parallel) and compared with its check. A malformed code matches nothing.
 */
export async function matchCode(
  typed: string,
  requests: readonly OfflineRequest[],
): Promise<OfflineRequest | null> {
  const code = normalizeCode(typed);
  if (!/^AGW_\d{6}$/.test(code)) return null;
  const derived = await Promise.all(
    requests.map(async (request) =>
      request.codeCheck.algorithm === 'PBKDF2-SHA256' &&
      (await deriveCheck(code, request.codeCheck)) === request.codeCheck.hash
        ? request
        : null,
    ),
  );
  return derived.find((request) => request !== null) ?? null;
}
