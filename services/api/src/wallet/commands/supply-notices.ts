import type { Kysely } from 'kysely';
import type { Config, Logger } from '@filiere/platform';
import { createMailer, identityUsers, type Mail, type Mailer } from '../../identity/index.js';
import type { IdentityTables } from '../../identity/index.js';
import { formatFcfa } from '../domain/index.js';
import type { WalletDb } from '../tables.js';

/**
 * The wallet's own instance of identity's mailer: SMTP with SMTP_URL, else the `outbox`
 * table and the log, exactly as identity sends its mails.
 */
export function walletMailer<DB extends IdentityTables>(
  config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM'>,
  db: Kysely<DB>,
  logger: Logger,
): Mailer {
  return createMailer(config, db, logger);
}

const escapeHtml = (value: string): string =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** To the requester of a bank supply a super admin rejected: the reference, amount and why. */
export function supplyRejectedMail(
  to: string,
  firstname: string,
  supply: { reference: string; amount: number; reason: string },
  link: string,
): Mail {
  const lines = [
    `Votre approvisionnement par virement ${supply.reference} de ${formatFcfa(supply.amount)} a été rejeté.`,
    `Motif : ${supply.reason}`,
    'Aucun montant n’a été crédité sur votre portefeuille. Vos approvisionnements :',
  ];
  const greeting = `Bonjour ${firstname},`;
  return {
    to,
    subject: 'Filière : approvisionnement rejeté',
    text: `${greeting}\n\n${lines.join('\n')}\n${link}\n\nL’équipe Filière`,
    html:
      `<p>${escapeHtml(greeting)}</p>` +
      lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('') +
      `<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p><p>L’équipe Filière</p>`,
    link,
  };
}

/**
 * Mails the requester that its bank supply was rejected. Best effort, after the rejection
 * is recorded: a mail that cannot be sent is logged, the rejection stands (the requester
 * also gets a push and sees the row's status and reason).
 */
export async function mailSupplyRejected(
  deps: { db: Kysely<WalletDb>; mailer: Mailer; logger: Logger; publicUrl: string },
  ownerUserId: string,
  supply: { reference: string; amount: number; reason: string },
): Promise<void> {
  try {
    const owner = await deps.db
      .selectFrom(identityUsers().as('users'))
      .select(['email', 'firstname'])
      .where('id', '=', ownerUserId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!owner?.email) return;
    const link = `${deps.publicUrl.replace(/\/+$/, '')}/approvisionnements?tab=bank`;
    await deps.mailer.send(supplyRejectedMail(owner.email, owner.firstname, supply, link));
  } catch (error) {
    deps.logger.error({ err: error, reference: supply.reference }, 'supply rejection mail failed');
  }
}
