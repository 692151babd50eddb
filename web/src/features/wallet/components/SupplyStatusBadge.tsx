import type { SupplyRow } from '../model/supply-row.js';
import { WalletStatusBadge } from './WalletStatusBadge.js';

/**
 * A supply's status: 'Nouveau', 'En attente', 'Succès', 'Échouée' — and for a FAILED one
 * that its payer cancelled, a super admin rejected or the background check gave up,
 * 'Annulée', 'Rejetée' or 'Abandonnée'.
 */
export function SupplyStatusBadge({
  supply,
  kind,
}: {
  supply: Pick<SupplyRow, 'status' | 'failureCode'>;
  kind?: 'success' | 'warning' | 'danger' | 'neutral' | undefined;
}) {
  const outcome = supply.status === 'FAILED' ? supply.failureCode : null;
  return outcome ? (
    <WalletStatusBadge status={outcome} labels="supplyOutcomes" />
  ) : (
    <WalletStatusBadge status={supply.status} {...(kind ? { kind } : {})} />
  );
}
