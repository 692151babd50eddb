import { NotAcceptableError, UnauthorizedError, type Logger } from '@filiere/platform';
import type { RoleCode } from '../kernel/roles.js';
import { identityEvent } from './catalogue.js';
import { invalidToken } from './errors.js';
import { PIN_ROLES } from './permissions.js';
import type { IdentityWriter } from './journal.js';
import type { Mail, Mailer } from './mail/mailer.js';
import { invitationMail, resetMail } from './mail/templates.js';
import { hashPassword, verifyPassword } from './password.js';
import { REVOKE_TOKENS, toUserDto, type IdentityRepository, type UserRow } from './repository.js';
import { hashToken, newToken, TOKEN_TTL_MS, type TokenKind } from './tokens.js';

export interface AuthDeps {
  repo: IdentityRepository;
  mailer: Mailer;
  publicUrl: string;
  logger: Logger;
  sign(claims: { sub: string; role: RoleCode; tv: number }): string;
  /** Writes to the identity tables with their audit events. */
  journal: IdentityWriter;
  /** Tells the websocket hubs that these users' access changed (tokens revoked…). */
  accessChanged(userIds: string[]): Promise<void>;
}

const LINK_PATH: Record<TokenKind, string> = {
  INVITATION: '/auth/signup-invitation',
  RESET: '/auth/change-password',
};

/** Sign-in, invitation links, password reset and change. */
export class AuthService {
  constructor(private readonly deps: AuthDeps) {}

  async login(email: string, password: string) {
    const found = await this.deps.repo.findForSignIn(email);
    // Verified even without a user (against a dummy hash), so both answers take as long.
    const ok = await verifyPassword(found?.password_hash ?? null, password);
    if (!found || !ok) throw new UnauthorizedError('Vos identifiants sont incorrectes');
    const { password_hash: _hash, ...user } = found;
    if (!user.is_active) throw new NotAcceptableError("Votre compte n'a pas encore été activé");
    return {
      access_token: this.tokenFor(user),
      user: toUserDto(user),
    };
  }

  /** An access token carrying the user's current token version (claim `tv`). */
  tokenFor(user: UserRow): string {
    return this.deps.sign({ sub: user.id, role: user.role_code, tv: user.token_version });
  }

  /** Sends a notice; a failure is logged (the change it reports stands). */
  async sendMail(mail: Mail): Promise<void> {
    try {
      await this.deps.mailer.send(mail);
    } catch (error) {
      this.deps.logger.error({ err: error, to: mail.to, subject: mail.subject }, 'mail not sent');
    }
  }

  /** Issues a fresh single-use link (older ones of that kind stop working) and mails it. */
  async sendLink(user: UserRow, kind: TokenKind): Promise<void> {
    // A member without an e-mail (grower, carrier) has no web sign-in: nothing to send.
    if (!user.email) return;
    const { token, hash } = newToken();
    await this.deps.repo.revokeTokens(user.id, kind);
    await this.deps.repo.insertToken(user.id, kind, hash, TOKEN_TTL_MS[kind]);
    const base = this.deps.publicUrl.replace(/\/$/, '');
    const link = `${base}${LINK_PATH[kind]}?t=${encodeURIComponent(token)}&r=${encodeURIComponent(user.email)}`;
    const to = user.email;
    const mail =
      kind === 'INVITATION'
        ? invitationMail(to, user.firstname, link)
        : resetMail(to, user.firstname, link);
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
    if (!user || user.has_password) return;
    if (!(await this.deps.repo.hasPendingToken(user.id, 'INVITATION'))) return;
    await this.sendLink(user, 'INVITATION');
  }

  async forgotPassword(email: string): Promise<void> {
    const user = await this.deps.repo.findByEmail(email);
    if (user && (await this.mayGetPasswordLink(user))) await this.sendLink(user, 'RESET');
  }

  /**
   * A grower or carrier registered by staff (members.ts) has no web sign-in: no password and
   * no invitation, and no reset link either (else a changed e-mail would hand its account
   * over). One that has a password or a pending invitation (created through the user form)
   * keeps the usual links.
   */
  private async mayGetPasswordLink(user: UserRow): Promise<boolean> {
    if (!PIN_ROLES.includes(user.role_code) || user.has_password) return true;
    return this.deps.repo.hasPendingToken(user.id, 'INVITATION');
  }

  /** Whether a link's token would set the password now (not spent by the check). */
  isLinkValid(kind: TokenKind, token: string, email: string): Promise<boolean> {
    return this.deps.repo.isTokenValid(hashToken(token), kind, email);
  }

  /**
   * Sets the password from a link's token (invitation or reset). 403 for a bad token.
   * Every access token issued before stops working (a reset is what a robbed user does).
   */
  async setPasswordWithToken(
    kind: TokenKind,
    token: string,
    email: string,
    password: string,
  ): Promise<{ active: boolean }> {
    const passwordHash = await hashPassword(password);
    const { userId, active } = await this.deps.journal.write(async (repo) => {
      const id = await repo.consumeToken(hashToken(token), kind, email);
      if (!id) throw invalidToken();
      await repo.update(id, { password_hash: passwordHash, ...REVOKE_TOKENS });
      const via = kind === 'RESET' ? 'RESET' : 'INVITATION';
      // Whether the account may sign in now: one an administrator created is active, a
      // self-registered one waits for the super admin's activation.
      const row = await repo.findById(id);
      return {
        result: { userId: id, active: row?.is_active === true },
        userId: id,
        actorId: id,
        events: [identityEvent('UserPasswordChanged', { userId: id, actorId: id, via })],
      };
    });
    await this.deps.accessChanged([userId]);
    return { active };
  }

  /**
   * Undefined when the old password is wrong; else a new access token, as every token issued
   * before (this session's included) is revoked.
   */
  async changePassword(
    user: UserRow,
    oldPassword: string,
    newPassword: string,
  ): Promise<string | undefined> {
    const hash = await this.deps.repo.passwordHashOf(user.id);
    if (!(await verifyPassword(hash, oldPassword))) return undefined;
    const passwordHash = await hashPassword(newPassword);
    const updated = await this.deps.journal.write(async (repo) => {
      await repo.update(user.id, { password_hash: passwordHash, ...REVOKE_TOKENS });
      const row = await repo.findById(user.id);
      if (!row)
        throw new UnauthorizedError('Session invalide ou expirée : veuillez vous reconnecter');
      return {
        result: row,
        userId: user.id,
        actorId: user.id,
        events: [
          identityEvent('UserPasswordChanged', {
            userId: user.id,
            actorId: user.id,
            via: 'PROFILE',
          }),
        ],
      };
    });
    await this.deps.accessChanged([user.id]);
    return this.tokenFor(updated);
  }
}
