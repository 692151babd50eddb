import type { FastifyInstance } from 'fastify';
import { AuthService } from '../auth.service.js';
import { makeGuard, type IdentityContext } from '../context.js';
import type { Mailer } from '../mail/mailer.js';
import { outboxMailer } from '../mail/outbox-mailer.js';
import { smtpMailer } from '../mail/smtp-mailer.js';
import { superAdminNotifier } from '../notify.js';
import { registerAttemptLimit } from './rate-limit.js';
import { IdentityRepository } from '../repository.js';
import { authRoutes } from './auth.routes.js';
import { profileRoutes } from './profile.routes.js';
import { referenceRoutes } from './reference.routes.js';
import { signupRoutes } from './signup.routes.js';
import { UsersService } from '../users.service.js';
import { usersRoutes } from './users.routes.js';

/**
 * Identity and access under /api: sign-in, registration, invitation and reset
 * links, user administration, profile. Mail goes through SMTP when SMTP_URL is
 * set, else to the outbox table and the log.
 */
export async function registerIdentity(app: FastifyInstance): Promise<void> {
  const { config, db, logger } = app.deps;
  const mailer: Mailer = config.SMTP_URL
    ? smtpMailer(config.SMTP_URL, config.MAIL_FROM)
    : outboxMailer(db, logger);
  if (mailer.close) app.addHook('onClose', async () => mailer.close!());

  await app.register(
    async (scope) => {
      const repo = new IdentityRepository(db);
      const auth = new AuthService({
        repo,
        mailer,
        publicUrl: config.PUBLIC_URL,
        logger,
        sign: (claims) => app.jwt.sign(claims),
      });
      const ctx: IdentityContext = {
        repo,
        auth,
        users: new UsersService(repo, auth, superAdminNotifier(app, repo)),
        limitAttempts: await registerAttemptLimit(scope),
        ...makeGuard(app, repo),
      };
      authRoutes(scope, ctx);
      signupRoutes(scope, ctx);
      profileRoutes(scope, ctx);
      usersRoutes(scope, ctx);
      referenceRoutes(scope, ctx);
    },
    { prefix: '/api' },
  );
}
