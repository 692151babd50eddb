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
