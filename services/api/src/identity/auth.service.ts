import { NotAcceptableError, UnauthorizedError, type Logger } from '@filiere/platform';
import type { RoleCode } from '../http/auth.js';
import { invalidToken } from './errors.js';
import type { Mailer } from './mail/mailer.js';
import { invitationMail, resetMail } from './mail/templates.js';
import { hashPassword, verifyPassword } from './password.js';
import type { IdentityRepository, UserRow } from './repository.js';
import { hashToken, newToken, TOKEN_TTL_MS, type TokenKind } from './tokens.js';

export interface AuthDeps {
  repo: IdentityRepository;
  mailer: Mailer;
  publicUrl: string;
  logger: Logger;
  sign(claims: { sub: string; role: RoleCode }): string;
}

const LINK_PATH: Record<TokenKind, string> = {
  INVITATION: '/auth/signup-invitation',
  RESET: '/auth/change-password',
};

/** Sign-in, invitation links, password reset and change. */
export class AuthService {
  constructor(private readonly deps: AuthDeps) {}

  async login(email: string, password: string) {
    const user = await this.deps.repo.findByEmail(email);
    const ok = await verifyPassword(user?.password_hash ?? null, password);
    if (!user || !ok) throw new UnauthorizedError('Vos identifiants sont incorrectes');
    if (!user.is_active) throw new NotAcceptableError("Votre compte n'a pas encore été activé");
    const access_token = this.deps.sign({ sub: user.id, role: user.role_code });
    return { access_token, user: { id: user.id, role: { code: user.role_code } } };
  }

  /** Issues a fresh single-use link (older ones of that kind stop working) and mails it. */
  async sendLink(user: UserRow, kind: TokenKind): Promise<void> {
    const { token, hash } = newToken();
    await this.deps.repo.revokeTokens(user.id, kind);
    await this.deps.repo.insertToken(user.id, kind, hash, TOKEN_TTL_MS[kind]);
    const base = this.deps.publicUrl.replace(/\/$/, '');
    const link = `${base}${LINK_PATH[kind]}?t=${encodeURIComponent(token)}&r=${encodeURIComponent(user.email)}`;
    const mail =
      kind === 'INVITATION'
        ? invitationMail(user.email, user.firstname, link)
        : resetMail(user.email, user.firstname, link);
    try {
      await this.deps.mailer.send(mail);
    } catch (error) {
      // The account or request stands; the user can ask for the mail again.
      this.deps.logger.error({ err: error, to: user.email, kind }, 'mail not sent');
    }
  }

  /** Mails a new invitation only if the account still waits for its password. */
  async resendInvitation(email: string): Promise<void> {
    const user = await this.deps.repo.findByEmail(email);
    if (!user || user.password_hash) return;
    if (!(await this.deps.repo.hasPendingToken(user.id, 'INVITATION'))) return;
    await this.sendLink(user, 'INVITATION');
  }

  async forgotPassword(email: string): Promise<void> {
    const user = await this.deps.repo.findByEmail(email);
    if (user) await this.sendLink(user, 'RESET');
  }

  /** Sets the password from a link's token (invitation or reset). 403 for a bad token. */
  async setPasswordWithToken(
    kind: TokenKind,
    token: string,
    email: string,
    password: string,
  ): Promise<void> {
    const userId = await this.deps.repo.consumeToken(hashToken(token), kind, email);
    if (!userId) throw invalidToken();
    await this.deps.repo.update(userId, { password_hash: await hashPassword(password) });
  }

  /** False when the old password is wrong. */
  async changePassword(user: UserRow, oldPassword: string, newPassword: string): Promise<boolean> {
    if (!(await verifyPassword(user.password_hash, oldPassword))) return false;
    await this.deps.repo.update(user.id, { password_hash: await hashPassword(newPassword) });
    return true;
  }
}
