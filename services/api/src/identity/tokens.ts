import { createHash, randomBytes } from 'node:crypto';

export type TokenKind = 'INVITATION' | 'RESET';

/** Lifetimes (decisions.md): invitation 48 h, password reset 1 h. */
export const TOKEN_TTL_MS: Record<TokenKind, number> = {
  INVITATION: 48 * 3600_000,
  RESET: 3600_000,
};

/** A random URL-safe token; only its sha256 is stored. */
export function newToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
