/** The sandbox widget's HTML (French, accessible, no script: a form with two buttons). */

const escape = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

export const formatFcfa = (amount: number): string =>
  `${new Intl.NumberFormat('fr-FR').format(amount)} F CFA`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="fr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<style>
body{font-family:system-ui,sans-serif;background:#f4f6f8;color:#1b1f24;margin:0;padding:2rem}
main{max-width:28rem;margin:0 auto;background:#fff;border-radius:8px;padding:1.5rem;box-shadow:0 1px 3px #0002}
h1{font-size:1.3rem;margin-top:0}
dl{display:grid;grid-template-columns:auto 1fr;gap:.5rem 1rem}
dt{font-weight:600}
.actions{display:flex;gap:1rem;margin-top:1.5rem}
button{font-size:1rem;padding:.6rem 1.4rem;border-radius:6px;border:2px solid transparent;cursor:pointer}
button:focus-visible{outline:3px solid #1c64f2;outline-offset:2px}
.pay{background:#0b6b3a;color:#fff}
.refuse{background:#fff;color:#a1121f;border-color:#a1121f}
.note{font-size:.9rem;color:#4a5563}
</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>`;
}

export function widgetPage(supply: {
  reference: string;
  amount: number;
  status: string;
  returnTo: string;
}): string {
  const action = `/api/sandbox/pay/${encodeURIComponent(supply.reference)}`;
  const open = supply.status === 'INIT' || supply.status === 'PENDING';
  return page(
    'Paiement (bac à sable)',
    `<h1>Paiement de test (bac à sable)</h1>
<p class="note">Aucun argent réel n’est débité : choisissez le résultat du paiement.</p>
<dl>
<dt>Montant</dt><dd>${escape(formatFcfa(supply.amount))}</dd>
<dt>Référence</dt><dd>${escape(supply.reference)}</dd>
<dt>Statut</dt><dd>${escape(supply.status)}</dd>
</dl>
${
  open
    ? `<form method="post" action="${escape(action)}">
<input type="hidden" name="returnTo" value="${escape(supply.returnTo)}">
<div class="actions">
<button type="submit" name="outcome" value="SUCCESS" class="pay">Payer</button>
<button type="submit" name="outcome" value="FAILED" class="refuse">Refuser</button>
</div>
</form>`
    : `<p>Cet approvisionnement est déjà traité.</p>`
}`,
  );
}

export function notFoundPage(): string {
  return page(
    'Paiement introuvable',
    '<h1>Paiement introuvable</h1><p>Aucun approvisionnement ne porte cette référence.</p>',
  );
}
