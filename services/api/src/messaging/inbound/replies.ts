/**
 * What a grower may text to Filière's number, and what Filière answers (docs/messaging.md):
 * `OUI <code>` accepts the contract offered with that code, `SOLDE` gives his wallet's
 * balance, `RELEVE` its last movements; anything else a short help.
 * Case, accents and spaces around the word do not matter. Answers are GSM-7 French in one
 * SMS (≤ 160 characters).
 */
export type InboundRequest = 'balance' | 'statement' | 'help' | 'accept-help' | { accept: string };

export function inboundRequest(body: string): InboundRequest {
  const word = body
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .trim()
    .replace(/\s+/g, ' ')
    .toUpperCase();
  const accept = /^OUI(?: (.*))?$/.exec(word);
  if (accept) {
    const code = (accept[1] ?? '').replace(/ /g, '');
    return /^\d{6}$/.test(code) ? { accept: code } : 'accept-help';
  }
  if (word === 'SOLDE') return 'balance';
  if (word === 'RELEVE') return 'statement';
  return 'help';
}

/** How many movements `RELEVE` lists (three fit one SMS with the balance). */
export const STATEMENT_MOVEMENTS = 3;

/** Thousands grouped with plain spaces (GSM-7 has no narrow no-break space). */
const grouped = (n: number) => String(Math.abs(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');

/** Benin's day and month (UTC+1, no DST) of an instant: `DD/MM`. */
function beninDayMonth(at: string): string {
  const d = new Date(Date.parse(at) + 3_600_000).toISOString();
  return `${d.slice(8, 10)}/${d.slice(5, 7)}`;
}

export function balanceReply(balance: { balance: number; availableBalance: number }): string {
  const available =
    balance.availableBalance === balance.balance
      ? ''
      : ` dont ${grouped(balance.availableBalance)} F disponibles`;
  return `Filière : votre solde est de ${grouped(balance.balance)} F CFA${available}.`;
}

export function statementReply(
  movements: readonly { recordedAt: string; amount: number }[],
  balance: number,
): string {
  if (movements.length === 0) {
    return `Filière : aucun mouvement sur votre portefeuille. Solde : ${grouped(balance)} F CFA.`;
  }
  const lines = movements.map(
    (m) => `${beninDayMonth(m.recordedAt)} ${m.amount < 0 ? '-' : '+'}${grouped(m.amount)} F`,
  );
  return `Filière : derniers mouvements : ${lines.join('; ')}. Solde : ${grouped(balance)} F CFA.`;
}

export const ACCEPT_HELP_REPLY =
  "Filière : pour accepter un contrat, envoyez OUI suivi du code de 6 chiffres de l'offre.";

export function acceptanceReply(
  outcome:
    | { outcome: 'accepted'; reference: string }
    | { outcome: 'wrong'; remaining: number }
    | { outcome: 'locked' }
    | { outcome: 'none' },
): string {
  switch (outcome.outcome) {
    case 'accepted':
      return `Filière : contrat ${outcome.reference} accepté. Merci.`;
    case 'wrong':
      return outcome.remaining > 0
        ? `Filière : code incorrect, il reste ${outcome.remaining} essai${outcome.remaining > 1 ? 's' : ''}.`
        : 'Filière : code incorrect, il est maintenant bloqué. Demandez un nouveau code à votre coopérative.';
    case 'locked':
      return 'Filière : ce code est bloqué. Demandez un nouveau code à votre coopérative.';
    case 'none':
      return 'Filière : aucun contrat en attente de votre accord pour ce numéro.';
  }
}

export const HELP_REPLY =
  'Filière : envoyez SOLDE pour votre solde, RELEVE pour vos derniers mouvements, ' +
  'OUI et le code pour accepter un contrat.';
