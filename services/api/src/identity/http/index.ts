import type { FastifyInstance } from 'fastify';
import { makeGuard, type IdentityContext } from '../context.js';
import type { Mailer } from '../mail/mailer.js';
import { superAdminNotifier } from '../notify.js';
import type { IdentityPorts } from '../ports.js';
import { IdentityRepository } from '../repository.js';
import { createMailer, identityServices } from '../services.js';
import { authRoutes } from './auth.routes.js';
import { membersRoutes } from './members.routes.js';
import { profileRoutes } from './profile.routes.js';
import { registerAttemptLimit } from './rate-limit.js';
import { referenceRoutes } from './reference.routes.js';
import { signupRoutes } from './signup.routes.js';
import { usersRoutes } from './users.routes.js';

/**
 * Identity and access under /api: sign-in, registration, invitation and reset
 * links, user administration, profile, audit trail. Mail goes through SMTP when
 * SMTP_URL is set, else to the outbox table and the log. Changes of an account are
 * recorded as events of its `user-<id>` stream, through the app's command pipeline.
 */
export async function registerIdentity(app: FastifyInstance, ports: IdentityPorts): Promise<void> {
  const { config, db, logger } = app.deps;
  const mailer: Mailer = createMailer(config, db, logger);
  if (mailer.close) app.addHook('onClose', async () => mailer.close!());

  await app.register(
    async (scope) => {
      const services = identityServices({
        db,
        config,
        logger,
        mailer,
        commands: app.commands,
        sign: (claims) => app.jwt.sign(claims),
        // The websocket hub (realtime/, registered after identity) closes the sockets that lost access.
        accessChanged: (userIds) => app.accessChanged(userIds),
        notifySuperAdmins: superAdminNotifier(app, new IdentityRepository(db)),
        userDeletionCheck: ports.userDeletionCheck,
      });
      const ctx: IdentityContext = {
        repo: services.repo,
        auth: services.auth,
        users: services.users,
        limitAttempts: await registerAttemptLimit(scope),
        ...makeGuard(app),
      };
      authRoutes(scope, ctx);
      signupRoutes(scope, ctx);
      profileRoutes(scope, ctx);
      usersRoutes(scope, ctx);
      membersRoutes(scope, ctx);
      referenceRoutes(scope, ctx);
    },
    { prefix: '/api' },
  );
}
