import { FAILING_PAYOUT_DIGIT } from './provider-stub.js';
import { Prng } from './prng.js';
import type { TortureRole } from './population.js';

/** How a client sends one command: a retry policy and, sometimes, a very short timeout. */
export interface Delivery {
  /** Retry with the same Idempotency-Key after a timeout, a connection error or a 5xx. */
  retry: boolean;
  /** A client-side timeout short enough to give up before the server answers. */
  shortTimeout: boolean;
}

export type PlannedOp = Delivery &
  (
    | {
        kind: 'supply-widget';
        method: 'MOBILE_MONEY' | 'CARD';
        amount: number;
        /** The payer completes the provider's widget, or refuses (a failed payment). */
        approved: boolean;
        /** How many times the client verifies (a repeat must not credit twice). */
        verifications: number;
      }
    | { kind: 'supply-bank'; amount: number; validations: number; byPath: boolean }
    | {
        kind: 'transfer';
        /** `foreign`: a user of the other cluster (403 for these roles). */
        scope: 'cluster' | 'foreign';
        /** Resolved against the candidates at run time (`pick % candidates.length`). */
        pick: number;
        amount: number;
      }
    | { kind: 'withdrawal'; method: 'MOBILE_MONEY' | 'BANK'; amount: number }
    | { kind: 'stats' }
    | {
        /**
         * A grower files a request: in its cluster's link (INPUT: kg of NPK; PINEAPLE: F), or
         * a social financing asked of the SFD (SOCIAL: F).
         */
        kind: 'file-request';
        requestType: 'INPUT' | 'PINEAPLE' | 'SOCIAL';
        quantity: number;
        amount: number;
      }
    | {
        /**
         * The season aggregator (or the SFD, its SOCIAL ones) accepts its oldest pending
         * requests (re-sent when unknown).
         */
        kind: 'accept-requests';
        count: number;
      }
    | {
        /**
         * A delivery by code: `single` (one confirmation, retried with its key), `double`
         * (confirmed again afterwards with another key: 409), `concurrent` (the provider and
         * the aggregator confirm the same code at once, each with its own key).
         */
        kind: 'deliver';
        pick: number;
        /** Deliver a code already delivered (a late or mistaken confirmation: 409). */
        stale: boolean;
        mode: 'single' | 'double' | 'concurrent';
      }
    | {
        /**
         * An aggregator's delivery contract step (with nothing at that stage, the step before:
         * run → deliver → create): `create` one for a grower of its cluster
         * (tonnes with three decimals, F), `deliver` (record the weighed delivery of a
         * confirmed one: a share of the contracted kg, sometimes more), `run` delivered ones,
         * or `cancel` an open one (sometimes a delivered one: refused). Runs are `single`
         * (retried with its key), `double` (run again after the 202, another key),
         * `concurrent` (two runs of the same ids at once, own keys) or `same-key` (two sends
         * of one run at once, one key).
         */
        kind: 'contract';
        action: 'create' | 'deliver' | 'run' | 'cancel';
        pick: number;
        /** Contracted quantity in kg (sent as tonnes with up to three decimals). */
        kg: number;
        amount: number;
        /** Delivered share of the contracted kg, in percent (50 to 120). */
        deliveredPct: number;
        runMode: 'single' | 'double' | 'concurrent' | 'same-key';
        /** Also run one contract already run (a late double click). */
        rerun: boolean;
      }
    | {
        /** A grower confirms one of its contracts (sometimes one already confirmed: no-op). */
        kind: 'confirm-contract';
        pick: number;
        again: boolean;
      }
  );

/**
 * The operations of one client, drawn from its own PRNG stream (seed, client index): the
 * same seed gives the same sequence of operations, whatever the answers were. Every op
 * draws the same number of values, so one op never shifts the next.
 */
export class ClientPlan {
  private readonly prng: Prng;

  constructor(
    seed: number,
    readonly client: number,
    private readonly role: TortureRole,
  ) {
    this.prng = new Prng(Prng.derive(seed, client));
  }

  next(): PlannedOp {
    const r = this.prng;
    const draws = Array.from({ length: 9 }, () => r.next());
    const [kindDraw, a, b, c, d, e, f, retryDraw, timeoutDraw] = draws as [
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    const delivery: Delivery = { retry: retryDraw < 0.6, shortTimeout: timeoutDraw < 0.04 };
    const kind = pickKind(this.role, kindDraw);
    const between = (u: number, min: number, max: number) => min + Math.floor(u * (max - min + 1));
    switch (kind) {
      case 'supply-widget':
        return {
          ...delivery,
          kind,
          method: a < 0.7 ? 'MOBILE_MONEY' : 'CARD',
          amount: between(b, 10, 500) * 100,
          approved: c < 0.8,
          verifications: d < 0.3 ? 2 : 1,
        };
      case 'supply-bank':
        return {
          ...delivery,
          kind,
          amount: between(b, 10, 500) * 100,
          validations: c < 0.3 ? 2 : 1,
          byPath: d < 0.3,
        };
      case 'transfer': {
        const overdraw = d < 0.1;
        return {
          ...delivery,
          kind,
          scope: a < 0.12 ? 'foreign' : 'cluster',
          pick: Math.floor(b * 1e9),
          amount: overdraw ? between(c, 1_000, 5_000) * 1_000 : between(c, 1, 400) * 10 + 5,
        };
      }
      case 'withdrawal': {
        const failing = c < 0.25;
        const base = between(b, 10, 300) * 10;
        return {
          ...delivery,
          kind,
          method: e < 0.1 ? 'BANK' : 'MOBILE_MONEY',
          amount: failing ? base + FAILING_PAYOUT_DIGIT : base + (a < 0.5 ? 0 : 5),
        };
      }
      case 'file-request': {
        const input = a < 0.6;
        return {
          ...delivery,
          kind,
          requestType: input ? 'INPUT' : a < 0.85 ? 'PINEAPLE' : 'SOCIAL',
          quantity: input ? between(b, 1, 20) : between(b, 100, 2_000),
          amount: between(c, 5, 50) * 100,
        };
      }
      case 'accept-requests':
        return { ...delivery, kind, count: between(a, 1, 4) };
      case 'deliver':
        return {
          ...delivery,
          kind,
          pick: Math.floor(b * 1e9),
          stale: c < 0.1,
          mode: d < 0.55 ? 'single' : d < 0.75 ? 'double' : 'concurrent',
        };
      case 'contract':
        return {
          ...delivery,
          kind,
          action: a < 0.25 ? 'create' : a < 0.55 ? 'deliver' : a < 0.88 ? 'run' : 'cancel',
          pick: Math.floor(b * 1e9),
          kg: between(c, 1_000, 5_000),
          amount: between(d, 10, 200) * 100,
          deliveredPct: between(e, 50, 120),
          runMode: f < 0.45 ? 'single' : f < 0.65 ? 'double' : f < 0.85 ? 'concurrent' : 'same-key',
          rerun: (b * 1e3) % 1 < 0.2,
        };
      case 'confirm-contract':
        return { ...delivery, kind, pick: Math.floor(b * 1e9), again: c < 0.1 };
      default:
        return { ...delivery, kind: 'stats' };
    }
  }
}

type Kind = PlannedOp['kind'];

const AGGREGATOR_WEIGHTS: [Kind, number][] = [
  ['supply-widget', 20],
  ['supply-bank', 12],
  ['transfer', 28],
  ['withdrawal', 12],
  ['stats', 10],
  ['accept-requests', 18],
  ['deliver', 4],
  ['contract', 28],
];
const GROWER_WEIGHTS: [Kind, number][] = [
  ['transfer', 36],
  ['withdrawal', 24],
  ['stats', 20],
  ['file-request', 20],
  ['confirm-contract', 12],
];
const PROVIDER_WEIGHTS: [Kind, number][] = [
  ['deliver', 75],
  ['stats', 25],
];
const SFD_WEIGHTS: [Kind, number][] = [
  ['accept-requests', 70],
  ['stats', 30],
];

function pickKind(role: TortureRole, u: number): Kind {
  const weights =
    role === 'ROLE_GROWER'
      ? GROWER_WEIGHTS
      : role === 'ROLE_INPUT_PROVIDER'
        ? PROVIDER_WEIGHTS
        : role === 'ROLE_SFD'
          ? SFD_WEIGHTS
          : AGGREGATOR_WEIGHTS;
  const total = weights.reduce((s, [, w]) => s + w, 0);
  let x = u * total;
  for (const [kind, w] of weights) {
    if (x < w) return kind;
    x -= w;
  }
  return weights[weights.length - 1]![0];
}
