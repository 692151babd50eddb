/** The texts of the SMS identity and the actors send (French: what members read). */

/** The last 4 characters only: enough to recognise an account, not to reuse it. */
export function maskNumber(value: string | null | undefined): string {
  if (!value) return 'aucun';
  return value.length <= 4 ? '••••' : `••••${value.slice(-4)}`;
}

export function pinSms(pin: string): string {
  return `Filière : votre nouveau code PIN est ${pin}. Ne le communiquez à personne.`;
}

/** To the old and the new number when a change of payout account is requested. */
export function payoutRequestedSms(newAccount: string): string {
  return (
    `Filière : une demande de changement de votre compte de paiement (nouveau : ${newAccount}) ` +
    'a été enregistrée. Elle sera vérifiée avant de prendre effet. Si vous n’en êtes pas ' +
    'à l’origine, contactez votre gestionnaire de cluster.'
  );
}

/** To the old and the new number once the change is approved. */
export function payoutApprovedSms(newAccount: string): string {
  return (
    `Filière : votre compte de paiement a été changé (nouveau : ${newAccount}). Vos prochains ` +
    'paiements y seront versés. Si vous n’en êtes pas à l’origine, contactez votre ' +
    'gestionnaire de cluster.'
  );
}

/** To the member's number when a requested change is rejected. */
export function payoutRejectedSms(): string {
  return 'Filière : la demande de changement de votre compte de paiement a été rejetée. Votre compte reste inchangé.';
}
