import type { Kysely } from 'kysely';
import type { IdentityTables } from './tables.js';
import type { CommandPipeline, EventStoreTables } from '@filiere/event-store';
import type { Config, Logger } from '@filiere/platform';
import type { RoleCode } from '../kernel/roles.js';
import { AuthService } from './auth.service.js';
import { IdentityJournal } from './journal.js';
import type { UserPushType } from './notify.js';
import type { UserDeletionCheck } from './ports.js';
import type { Mailer } from './mail/mailer.js';
import { outboxMailer } from './mail/outbox-mailer.js';
import { smtpMailer } from './mail/smtp-mailer.js';
import { IdentityRepository } from './repository.js';
import { UsersService } from './users.service.js';

/** Mail as every context sends it: SMTP with SMTP_URL, else the `outbox` table and the log. */
export function createMailer<DB extends IdentityTables>(
  config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM'>,
  db: Kysely<DB>,
  logger: Logger,
): Mailer {
  return config.SMTP_URL ? smtpMailer(config.SMTP_URL, config.MAIL_FROM) : outboxMailer(db, logger);
}

export interface IdentityServiceDeps<DB extends IdentityTables = IdentityTables> {
  db: Kysely<DB>;
  config: Pick<Config, 'PUBLIC_URL'>;
  logger: Logger;
  mailer: Mailer;
  /** The app's command pipeline: account changes are appended as `user-<id>` events. */
  commands: CommandPipeline;
  sign(claims: { sub: string; role: RoleCode; tv: number }): string;
  /** Tells the websocket hubs that these users' access changed. */
  accessChanged(userIds: string[]): Promise<void>;
  /** Tells the super admins (websocket), e.g. of a new inactive account. */
  notifySuperAdmins?: (type: UserPushType, data: Record<string, unknown>) => Promise<void>;
  /** Asked before a user is deleted (ports.ts): refuses while the user still holds money. */
  userDeletionCheck: UserDeletionCheck;
}

/**
 * Identity's services wired once: the API's routes (http/index.ts) and `npm run
 * admin:create` build them here, so an account is made the same way by both.
 */
export function identityServices<DB extends IdentityTables & EventStoreTables>(
  deps: IdentityServiceDeps<DB>,
) {
  const repo = new IdentityRepository(deps.db);
  const journal = IdentityJournal.of(deps.db, deps.commands);
  const auth = new AuthService({
    repo,
    mailer: deps.mailer,
    publicUrl: deps.config.PUBLIC_URL,
    logger: deps.logger,
    sign: deps.sign,
    journal,
    accessChanged: deps.accessChanged,
  });
  const users = new UsersService(
    repo,
    auth,
    deps.notifySuperAdmins,
    (userId) => deps.userDeletionCheck(deps.db, userId),
    journal,
    deps.accessChanged,
  );
  return { repo, journal, auth, users };
}
