import type { z } from 'zod';
import type { BadgeKind } from '../../../../shared/ui/StatusBadge.js';
import { enumParam, listSearch, textParam } from '../../../../shared/search/list-search.js';
import { ROLES } from '../../../../shared/auth/roles.js';

/**
 * The delivery contract's statuses (decisions.md "Contracts") and the list filters of §2.5:
 * all / waiting / ready for delivery / executed / out of time → all / PENDING / CONFIRMED /
 * COMPLETED / OUTTIME, and 'Livraison disponible' → DELIVERED: the contracts ready to run.
 * Labels live in the `contracts` namespace (`statuses.<CODE>`).
 */
export const CONTRACT_STATUSES = [
  'PENDING',
  'CONFIRMED',
  'DELIVERED',
  'COMPLETED',
  'OUTTIME',
  'CANCELED',
] as const;
export type ContractStatus = (typeof CONTRACT_STATUSES)[number];

export const CONTRACT_FILTERS = ['waiting', 'ready', 'delivered', 'executed', 'outtime'] as const;
export type ContractFilter = (typeof CONTRACT_FILTERS)[number];

export const STATUS_KIND: Record<string, BadgeKind> = {
  PENDING: 'warning',
  CONFIRMED: 'colorize',
  DELIVERED: 'success',
  COMPLETED: 'success',
  OUTTIME: 'danger',
  CANCELED: 'danger',
};

/**
 * `?page=&q=&status=&run=&aggregator=`: the list's URL state; `run` follows a run's progress;
 * `aggregator` (super admin, admin) narrows the list to one aggregator, whose list searches.
 */
export const deliveryContractsSearch = listSearch({
  status: enumParam(CONTRACT_FILTERS),
  run: textParam,
  aggregator: textParam,
});
export type DeliveryContractsSearch = z.infer<typeof deliveryContractsSearch>;

/** Only a DELIVERED contract may be run (selected for 'Exécuter'). */
export const isRunnable = (status: string) => status === 'DELIVERED';

/** What a user may do with a contract, by role and status (the API decides again). */
export function contractActions(role: string | undefined, status: string) {
  const aggregator = role === ROLES.INDUSTRIAL;
  const grower = role === ROLES.GROWER || role === ROLES.FARMER_ORGANIZATION;
  return {
    confirm: grower && status === 'PENDING',
    deliver: aggregator && status === 'CONFIRMED',
    cancel: aggregator && ['PENDING', 'CONFIRMED', 'OUTTIME'].includes(status),
    run: aggregator && isRunnable(status),
  };
}

/** The roles of the contract pages (§6) and those who confirm (the grower, its cooperative). */
export const CONTRACT_READERS: readonly string[] = [
  ROLES.SUPER_ADMIN,
  ROLES.ADMIN,
  ROLES.INDUSTRIAL,
  ROLES.GROWER,
  ROLES.FARMER_ORGANIZATION,
];
