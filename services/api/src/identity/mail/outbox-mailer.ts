import type { Kysely } from 'kysely';
import type { IdentityTables } from '../tables.js';
import { narrowDb, type Logger } from '@filiere/platform';
import type { Mailer } from './mailer.js';

/** Embedded mode (no SMTP_URL): mails land in the `outbox` table and the log shows their link. */
export function outboxMailer<DB extends IdentityTables>(db: Kysely<DB>, logger: Logger): Mailer {
  const own = narrowDb<IdentityTables>()(db);
  return {
    async send(mail) {
      await own
        .insertInto('outbox')
        .values({ recipient: mail.to, subject: mail.subject, text: mail.text, html: mail.html })
        .execute();
      logger.info(
        { to: mail.to, subject: mail.subject, link: mail.link },
        'mail written to outbox',
      );
    },
  };
}
