/**
 * What the hub at `/api/ws` sends, by type: `{type, data}`: the hub's own control messages
 * (`HUB_MESSAGES`, services/api/src/realtime/socket.ts) and the push types each context's
 * module declares (`pushes` in services/api/src/<context>/index.ts: identity's to super
 * admins, the wallet's projectors', toasts and exports'). A new push type is declared by its
 * module first; the table below must then say what it refreshes, or the web app does not
 * compile, and server-pushes.test.ts fails until both name the same types.
 */
export interface PushPayloads {
  ready: { room: string };
  joined: { room: string };
  pong: null;
  error: { statusCode: number; message: string };
  /** Pushes may have been lost (the API's listener reconnected): every screen refetches. */
  resync: null;
  'wallet.updated': null;
  'transactions.updated': null;
  'supplies.updated': null;
  'financing.updated': null;
  'reporting.updated': null;
  /** A super admin rejected one of my bank supplies, with the reason (to its requester). */
  'supply.rejected': { reference: string; reason: string };
  /** A withdrawal was paid out (SUCCESS) or failed and was refunded (FAILED). */
  'withdrawal.settled': { withdrawalId: string; amount: number; status: 'SUCCESS' | 'FAILED' };
  'export.progress': { jobId: string; done: number; total: number };
  'export.ready': { jobId: string; url: string };
  'export.failed': { jobId: string };
  'user.inactive.created': { userId: string; role: string };
  'user.status.changed': { userId: string; isActive: boolean };
  /** An account was deleted (to super admins: the users lists and the inactive counter). */
  'user.deleted': { userId: string };
  /** An aggregator became active: a new industrial to add to a season (to super admins). */
  'user.industrialToAdd': { userId: string };
  /** A grower or one of its plots was registered, changed, banned or reinstated (actors). */
  'actors.grower.changed': { growerId: string };
  /** An input supplier was registered, changed, deactivated or reactivated (actors). */
  'actors.supplier.changed': { supplierId: string };
  /** A cooperative was registered, changed, deactivated or reactivated (actors). */
  'actors.cooperative.changed': { cooperativeId: string };
  /** A carrier or its vehicles were registered, changed, deactivated or reactivated (actors). */
  'actors.carrier.changed': { carrierId: string };
  /** I was attached to a season (the bell: 'Vous avez été ajouté à la saison'; seasons). */
  'seasons.invitation': { seasonId: number; linkId: number };
  /**
   * One of my season links changed: accepted, expired, removed or repriced; or, to super
   * admins and cluster managers, any change of a season (its 'Saisons' row, its detail).
   */
  'seasons.updated': { seasonId: number };
  /** A grower filed a request to me (industrial: INPUT, PINEAPLE; SFD: SOCIAL; seasons). */
  'seasons.request': { requestId: number; type: string; seasonId: number };
  /** A request I filed or handle was accepted, rejected or delivered (seasons). */
  'seasons.requestUpdated': { requestId: number; type: string; status: string };
  /** An input provider assigned to, banned from or paid in a season of mine (industrial, provider; seasons). */
  'seasons.inputs': { seasonId: number };
  /**
   * One of my contracts changed status (to its aggregator, grower and the grower's cooperative;
   * contracts). Without data after a large batch, and for a new LIVRAISON_PARENT (to its
   * aggregator: the parents' projection).
   */
  'contracts.updated': { contractId: string; status: string } | undefined;
  /** A contract of my run finished (COMPLETED or FAILED): the run's live progress (contracts). */
  'contracts.run': {
    runId: string;
    contractId: string;
    status: 'COMPLETED' | 'FAILED';
    done: number;
    total: number;
  };
  /** My dashboard's figures changed (reporting's dashboard projector, after its write). */
  'reporting.dashboard': null;
  /** The reporting board's figures changed (reporting's board projector; to super admins). */
  'reporting.board': null;
  /** The ledger's hash chain was found BROKEN (reporting's audit; to super admins and the auditor). */
  'audit.integrity': { status: 'BROKEN'; brokenAt: number };
  /** A day's close or an exception changed (reconciliation; to finance and the auditor). */
  'reconciliation.changed': null;
  /** SMS were written, sent, delivered or failed (messaging; to the super admin and admins). */
  'sms.changed': null;
}

export type PushType = keyof PushPayloads;

/** One push; `type` narrows `data`. */
export type PushMessage = { [T in PushType]: { type: T; data: PushPayloads[T] } }[PushType];

export type QueryKey = readonly string[];

const WALLET: QueryKey[] = [['wallet'], ['transaction']];
const none = (): QueryKey[] => [];
const SEASON_INDUSTRIALS: QueryKey = ['seasons', 'catalogue', 'industrials'];

/**
 * Which cached queries each push makes stale (TanStack Query prefixes: `['wallet']` refreshes
 * the balance card, the stats and the yearly chart). Control and export messages refresh
 * nothing; an export's progress is followed by its own download (features/wallet/api/export.ts).
 */
export const INVALIDATIONS: { [T in PushType]: (data: PushPayloads[T]) => QueryKey[] } = {
  ready: none,
  joined: none,
  pong: none,
  // Not a key list: use-realtime refetches every query on it.
  resync: none,
  error: none,
  'wallet.updated': () => WALLET,
  'transactions.updated': () => WALLET,
  'supplies.updated': () => [...WALLET, ['supply']],
  'financing.updated': () => [...WALLET, ['financement']],
  // The reporting screens do not exist in the web app yet.
  'reporting.updated': none,
  // The row changes by `supplies.updated`; the toast is the wallet's (use-supply-notices.ts).
  'supply.rejected': none,
  // Also toasted by the wallet (features/wallet/hooks/use-withdrawal-notices.ts).
  'withdrawal.settled': () => WALLET,
  'export.progress': none,
  'export.ready': none,
  'export.failed': none,
  // The users lists and the 'Utilisateurs' counter (['users', 'count-inactives']).
  'user.inactive.created': () => [['users']],
  // A deactivated aggregator also leaves the seasons' aggregator autocomplete.
  'user.status.changed': () => [['users'], SEASON_INDUSTRIALS],
  'user.deleted': () => [['users'], SEASON_INDUSTRIALS],
  // The seasons' aggregator autocomplete (features/seasons/model/api.ts, seasonKeys.industrials).
  'user.industrialToAdd': () => [SEASON_INDUSTRIALS],
  // The growers list, a grower's detail and its contracts (features/actors/growers).
  'actors.grower.changed': () => [['growers']],
  // The suppliers list and a supplier's detail (features/actors/suppliers).
  'actors.supplier.changed': () => [['input-provider']],
  // The cooperatives list and detail, and the growers form's cooperative select.
  'actors.cooperative.changed': () => [['cooperatives'], ['growers', 'cooperative-options']],
  // The carriers list and a carrier's detail (features/actors/carriers).
  'actors.carrier.changed': () => [['carriers']],
  // The industrial's seasons, its invitations (the bell) and a season's detail.
  'seasons.invitation': () => [['seasons']],
  'seasons.updated': () => [['seasons']],
  // The request lists, the season's 'Demandes' tab and the deliveries by code.
  'seasons.request': () => [['season-requests']],
  'seasons.requestUpdated': () => [['season-requests'], ['season-deliveries'], ...WALLET],
  // A season's input providers (assigned, banned, paid by a delivery): the providers' list.
  'seasons.inputs': () => [['season-inputs']],
  // Every contract list and detail (features/contracts, the grower's contracts tab).
  'contracts.updated': () => [['contracts'], ['growers']],
  // The run's progress and the lists; the payments move the wallet.
  'contracts.run': () => [['contracts'], ...WALLET],
  // The dashboard's cards and charts (features/reporting/dashboard, keys under 'dashboard').
  'reporting.dashboard': () => [['dashboard']],
  // The super admin's reporting board (features/reporting/board, keys under 'reporting').
  'reporting.board': () => [['reporting']],
  // The auditor's integrity panel (features/reporting/audit, keys under 'audit').
  'audit.integrity': () => [['audit']],
  // 'Rapprochement' and the super admin's card (features/reconciliation, keys under 'reconciliation').
  'reconciliation.changed': () => [['reconciliation']],
  // The SMS screen's list and counts (features/messaging, keys under 'sms').
  'sms.changed': () => [['sms']],
};

function isPushType(type: string): type is PushType {
  return Object.prototype.hasOwnProperty.call(INVALIDATIONS, type);
}

export function invalidationsFor(message: PushMessage): QueryKey[] {
  const keysOf = INVALIDATIONS[message.type] as (data: unknown) => QueryKey[];
  return keysOf(message.data);
}

/** Reconnection delay: 0.5 s doubling to 30 s, with up to 20 % jitter. */
export function backoffDelay(attempt: number, random = Math.random): number {
  const base = Math.min(30_000, 500 * 2 ** Math.max(0, attempt));
  return Math.round(base * (1 + 0.2 * random()));
}

/** `ws(s)://host/api/ws?token=…` for the page's origin. */
export function socketUrl(location: { protocol: string; host: string }, token: string): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}/api/ws?token=${encodeURIComponent(token)}`;
}

/**
 * A message of the hub, or null: not JSON, no type, or a type this build does not know
 * (a newer server's), which nothing here could act on.
 */
export function parsePush(raw: unknown): PushMessage | null {
  if (typeof raw !== 'string') return null;
  try {
    const value = JSON.parse(raw) as unknown;
    if (!value || typeof value !== 'object') return null;
    const { type, data } = value as { type?: unknown; data?: unknown };
    if (typeof type !== 'string' || !isPushType(type)) return null;
    return { type, data: data ?? null } as PushMessage;
  } catch {
    return null;
  }
}
