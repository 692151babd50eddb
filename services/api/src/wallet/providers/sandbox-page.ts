/**
 * The sandbox "widget": a page of ours served at `/api/sandbox/pay/{reference}` where the
 * payer chooses success or failure. The form posts `outcome` (SUCCESS or FAILED) back to
 * the same path; the route records the choice with `recordSandboxPayment` and answers the
 * result page, which hands `{reference, transactionId, status}` to the opener window (the
 * web app then calls the verify endpoint with the transaction id).
 */
const escapeHtml = (value: string): string =>
  value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const formatAmount = (amount: number): string =>
  new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'XOF' }).format(amount);

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="fr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#1a1b1e}
h1{font-size:1.4rem}.amount{font-size:2rem;font-weight:700;margin:1rem 0}
form{display:flex;gap:.75rem;flex-wrap:wrap}
button{font-size:1rem;padding:.7rem 1.2rem;border:0;border-radius:.4rem;cursor:pointer}
.ok{background:#2b8a3e;color:#fff}.ko{background:#c92a2a;color:#fff}
</style>
</head>
<body><main>${body}</main></body>
</html>`;
}

export function renderSandboxPayPage(supply: {
  reference: string;
  amount: number;
  actionUrl: string;
}): string {
  return page(
    'Paiement de test',
    `<h1>Paiement de test (bac à sable)</h1>
<p>Référence : <strong>${escapeHtml(supply.reference)}</strong></p>
<p class="amount">${escapeHtml(formatAmount(supply.amount))}</p>
<p>Aucun argent réel n’est débité. Choisissez l’issue du paiement.</p>
<form method="post" action="${escapeHtml(supply.actionUrl)}">
<button class="ok" type="submit" name="outcome" value="SUCCESS">Payer (succès)</button>
<button class="ko" type="submit" name="outcome" value="FAILED">Refuser (échec)</button>
</form>`,
  );
}

export function renderSandboxResultPage(result: {
  reference: string;
  transactionId: string;
  status: 'SUCCESS' | 'FAILED';
}): string {
  const message = result.status === 'SUCCESS' ? 'Paiement effectué' : 'Paiement refusé';
  const payload = JSON.stringify({ type: 'filiere-sandbox-payment', ...result }).replace(
    /</g,
    '\\u003c',
  );
  return page(
    message,
    `<h1>${escapeHtml(message)}</h1>
<p>Transaction : <code>${escapeHtml(result.transactionId)}</code></p>
<p>Vous pouvez fermer cette fenêtre.</p>
<script>
(function(){var m=${payload};
if(window.opener){window.opener.postMessage(m,window.location.origin);setTimeout(function(){window.close()},800);}
else if(window.parent!==window){window.parent.postMessage(m,window.location.origin);}})();
</script>`,
  );
}
