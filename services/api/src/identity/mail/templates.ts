import type { Mail } from './mailer.js';

function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

function linkMail(to: string, subject: string, greeting: string, body: string, link: string): Mail {
  const text = `${greeting}\n\n${body}\n\n${link}\n\nL’équipe Filière`;
  const html =
    `<p>${escapeHtml(greeting)}</p><p>${escapeHtml(body)}</p>` +
    `<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p><p>L’équipe Filière</p>`;
  return { to, subject, text, html, link };
}

export function invitationMail(to: string, firstname: string, link: string): Mail {
  return linkMail(
    to,
    'Filière : confirmez votre compte',
    `Bonjour ${firstname},`,
    'Votre compte Filière a été créé. Définissez votre mot de passe avec ce lien (valable 48 heures) :',
    link,
  );
}

export function resetMail(to: string, firstname: string, link: string): Mail {
  return linkMail(
    to,
    'Filière : réinitialisation du mot de passe',
    `Bonjour ${firstname},`,
    'Pour choisir un nouveau mot de passe, suivez ce lien (valable une heure) :',
    link,
  );
}

function noticeMail(to: string, subject: string, greeting: string, lines: string[]): Mail {
  const footer =
    'Si vous n’êtes pas à l’origine de cette modification, contactez immédiatement l’administrateur de Filière.';
  const text = `${greeting}\n\n${lines.join('\n')}\n\n${footer}\n\nL’équipe Filière`;
  const html =
    `<p>${escapeHtml(greeting)}</p>` +
    lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('') +
    `<p>${escapeHtml(footer)}</p><p>L’équipe Filière</p>`;
  return { to, subject, text, html };
}

/** To the OLD address, after the account's e-mail changed. */
export function emailChangedMail(to: string, firstname: string, newEmail: string): Mail {
  return noticeMail(to, 'Filière : adresse e-mail modifiée', `Bonjour ${firstname},`, [
    `L’adresse e-mail de votre compte Filière vient d’être remplacée par ${newEmail}.`,
    'Les messages du compte (réinitialisation du mot de passe comprise) partent désormais à cette adresse.',
  ]);
}

/** The last 4 characters only: enough to recognise an account, not to reuse it. */
export function maskAccount(value: string | null): string {
  if (!value) return 'aucun';
  return value.length <= 4 ? '••••' : `••••${value.slice(-4)}`;
}

/** To the account's address, after a payout account (or the phone, its fallback) changed. */
export function payoutChangedMail(
  to: string,
  firstname: string,
  account: string,
  newValue: string | null,
): Mail {
  return noticeMail(to, 'Filière : compte de paiement modifié', `Bonjour ${firstname},`, [
    `${account} de votre compte Filière vient d’être modifié (nouveau : ${maskAccount(newValue)}).`,
    'Vos prochains retraits seront versés sur ce compte.',
  ]);
}
