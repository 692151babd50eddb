import { sql, type Kysely } from 'kysely';
import type { Database } from '@filiere/api';
import { verifyLog } from '@filiere/event-store';
import { product } from '@filiere/api/modules';
import {
  evolveWallet,
  initialWalletState,
  postingsOf,
  type WalletEvent,
  type WalletState,
} from '@filiere/api/wallet';
import { catalogueDecoder, checkProjector } from '@filiere/projections';
import { paidSupplies, sentPayouts, type ProviderStub } from './provider-stub.js';
import { AcceptanceCodes, MAX_WRONG_CODES } from '@filiere/api/contracts';
import { TORTURE_JWT_SECRET } from './environment.js';
import {
  checkCompletedOnce,
  checkConsentByCode,
  checkConsentByReply,
  checkContractHolds,
  checkOfflineWeighings,
  checkRunsPaidAsNetted,
  checkSfdRepaid,
} from './contracts-checker.js';
import {
  checkAcceptancesOnce,
  checkDeliveriesPaidOnce,
  checkHolds,
  checkOfflineReplays,
} from './seasons-checker.js';
import type { BalanceObservation, CommandRecord } from './workload.js';

export interface Violation {
  invariant: string;
  detail: string;
}

export interface InvariantResult {
  name: string;
  /** How many things it looked at (events, commands, observations…). */
  checked: number;
  violations: number;
}

export interface CheckReport {
  invariants: InvariantResult[];
  violations: Violation[];
  events: number;
}

interface StoredEvent {
  position: number;
  stream_id: string;
  type: string;
  data: Record<string, any>;
  metadata: Record<string, any>;
}

/** The event of each command that is its effect (appended once per command). */
const EFFECT_OF: Record<string, string> = {
  transfer: 'TransferSent',
  withdrawal: 'WithdrawalDebited',
  supply: 'SupplyInitiated',
  'validate-supply': 'SupplyCredited',
  'create-contract': 'DeliveryContractCreated',
};

/** The command name a key is scoped with, where it is not the workload's own. */
const SCOPE_OF: Record<string, string> = { 'create-contract': 'contracts.create' };

/**
 * The bank test's checker, run once the load has stopped and the system has settled. Every
 * invariant is checked over the whole event history, in order, and against what the clients
 * and the provider stub saw.
 */
export async function checkInvariants(
  db: Kysely<Database>,
  input: {
    commands: CommandRecord[];
    observations: BalanceObservation[];
    stub: ProviderStub;
    /** Supplies whose payer's page was lost right after the widget ('lose-payer-page'). */
    pagesLost?: { reference: string; amount: number; approved: boolean }[];
  },
): Promise<CheckReport> {
  const violations: Violation[] = [];
  const invariants: InvariantResult[] = [];
  const run = async (
    name: string,
    body: (fail: (detail: string) => void) => Promise<number> | number,
  ) => {
    let count = 0;
    const fail = (detail: string) => {
      count++;
      violations.push({ invariant: name, detail });
    };
    let checked = 0;
    try {
      checked = await body(fail);
    } catch (error) {
      // A check that cannot run (ledger:check throwing, say) is a finding, not a crash.
      fail(`the check itself failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    invariants.push({ name, checked, violations: count });
  };

  const { rows: events } = await sql<StoredEvent>`
    select position::bigint as position, stream_id, type, data, metadata
    from events order by position`.execute(db);
  const walletEvents = events as unknown as (StoredEvent & WalletEvent)[];

  await run('sum of all accounts is 0 (each event and the whole ledger)', (fail) => {
    let total = 0;
    for (const e of walletEvents) {
      const sum = postingsOf(e).reduce((s, p) => s + p.amount, 0);
      if (sum !== 0) fail(`event ${e.position} (${e.type}) posts ${sum}, not 0`);
      total += sum;
    }
    if (total !== 0) fail(`all postings sum to ${total}`);
    return events.length;
  });

  // Fold every wallet stream in log order; remember each prefix state.
  const wallets = new Map<string, WalletState>();
  const prefixes = new Map<string, Set<string>>();
  const state = (v: { balance: number; availableBalance: number }) =>
    `${v.balance}/${v.availableBalance}`;
  await run('no balance or available balance below 0 at any position', (fail) => {
    let folded = 0;
    for (const e of walletEvents) {
      if (!e.stream_id.startsWith('wallet-')) continue;
      const walletId = e.stream_id.slice('wallet-'.length);
      const before = wallets.get(walletId) ?? initialWalletState();
      const after = evolveWallet(before, e);
      wallets.set(walletId, after);
      folded++;
      let seen = prefixes.get(walletId);
      if (!seen) prefixes.set(walletId, (seen = new Set([state(before)])));
      seen.add(state(after));
      if (after.balance < 0 || after.availableBalance < 0) {
        fail(
          `wallet ${walletId} at position ${e.position} (${e.type}): balance ${after.balance}, available ${after.availableBalance}`,
        );
      }
    }
    return folded;
  });

  await run('every client-observed balance is a prefix state of its wallet', (fail) => {
    for (const o of input.observations) {
      const seen = prefixes.get(o.walletId) ?? new Set(['0/0']);
      if (!seen.has(state(o))) {
        fail(
          `client ${o.client} saw wallet ${o.walletId} at balance ${o.balance}/${o.availableBalance}, a state its history never had`,
        );
      }
    }
    return input.observations.length;
  });

  await run('projected wallet balances equal the fold of the events', async (fail) => {
    const rows = await db.selectFrom('wallet_balances').selectAll().execute();
    const byId = new Map(rows.map((r) => [String(r.wallet_id), r]));
    for (const [walletId, w] of wallets) {
      const row = byId.get(walletId);
      const balance = Number(row?.balance ?? 0);
      const available = Number(row?.available_balance ?? 0);
      if (balance !== w.balance || available !== w.availableBalance) {
        fail(
          `wallet ${walletId}: projected ${balance}/${available}, events give ${w.balance}/${w.availableBalance}`,
        );
      }
    }
    return wallets.size;
  });

  // Effects by idempotency key: the pipeline stores the scoped key as metadata.commandId.
  const effects = new Map<string, StoredEvent[]>();
  for (const e of events) {
    const id = e.metadata?.commandId;
    if (typeof id !== 'string') continue;
    const list = effects.get(id);
    if (list) list.push(e);
    else effects.set(id, [e]);
  }
  await run(
    'acknowledged commands have exactly one effect, refused or unacknowledged at most one',
    (fail) => {
      let checked = 0;
      for (const c of input.commands) {
        // A verification credits at most once per supply and transaction: checked below.
        if (!c.key || !(c.command in EFFECT_OF)) continue;
        checked++;
        const scoped = `${c.userId}:${SCOPE_OF[c.command] ?? c.command}:${c.key}`;
        const found = (effects.get(scoped) ?? []).filter((e) => e.type === EFFECT_OF[c.command]);
        const describe = () =>
          `${c.command} of client ${c.client} (#${c.seq}, key ${c.key}, ${c.outcome}, attempts ${JSON.stringify(c.attempts)})`;
        const credits = c.command === 'validate-supply' && c.body?.credited === false ? 0 : 1;
        if (c.outcome === 'ack' && found.length !== credits) {
          fail(`${describe()} has ${found.length} effects, expected ${credits}`);
        } else if (found.length > 1) {
          fail(`${describe()} has ${found.length} effects`);
        } else if (
          c.outcome === 'refused' &&
          found.length > 0 &&
          c.attempts.every((a) => 'status' in a && a.status < 500)
        ) {
          fail(`${describe()} was refused (${c.status}) yet took effect`);
        }
        const reference = c.body?.reference ?? c.body?.withdrawalId;
        if (c.command === 'create-contract' && c.outcome === 'ack' && found[0]) {
          if (found[0].data.contractId !== c.body?.contractId)
            fail(
              `${describe()} answered ${String(c.body?.contractId)} but created ${found[0].data.contractId}`,
            );
          continue;
        }
        if (c.outcome === 'ack' && found[0] && reference !== undefined) {
          const stored = found[0].data.reference ?? found[0].data.withdrawalId;
          if (stored !== reference) {
            fail(`${describe()} answered ${String(reference)} but recorded ${String(stored)}`);
          }
        }
      }
      return checked;
    },
  );

  await run('each supply is credited at most once, never after a refused payment', (fail) => {
    const credits = new Map<string, number>();
    const byTransaction = new Map<string, number>();
    for (const e of walletEvents) {
      if (e.type !== 'SupplyCredited') continue;
      credits.set(e.data.reference, (credits.get(e.data.reference) ?? 0) + 1);
      const tx = e.data.providerTransactionId;
      if (tx) byTransaction.set(tx, (byTransaction.get(tx) ?? 0) + 1);
    }
    for (const [reference, n] of credits)
      if (n > 1) fail(`supply ${reference} credited ${n} times`);
    for (const [tx, n] of byTransaction)
      if (n > 1) fail(`provider transaction ${tx} credited ${n} times`);
    let checked = credits.size;
    for (const c of input.commands) {
      if (c.command !== 'verify') continue;
      checked++;
      const reference = String(c.meta.reference);
      const n = credits.get(reference) ?? 0;
      if (c.meta.approved === false && n > 0)
        fail(`supply ${reference} credited after a refused payment`);
      if (c.outcome === 'ack' && c.body?.status === 'SUCCESS' && n !== 1) {
        fail(`verify of ${reference} answered SUCCESS but the supply was credited ${n} times`);
      }
    }
    return checked;
  });

  await run('every supply the provider paid is credited exactly once, page or no page', (fail) => {
    const credits = new Map<string, { n: number; amount: number; tx: string | null }>();
    for (const e of walletEvents) {
      if (e.type !== 'SupplyCredited' || e.data.method === 'BANK') continue;
      const seen = credits.get(e.data.reference);
      credits.set(e.data.reference, {
        n: (seen?.n ?? 0) + 1,
        amount: e.data.amount,
        tx: e.data.providerTransactionId ?? null,
      });
    }
    const paid = paidSupplies(input.stub);
    for (const [reference] of paid) {
      const n = credits.get(reference)?.n ?? 0;
      if (n !== 1) fail(`supply ${reference} paid at the provider, credited ${n} times`);
    }
    for (const [reference, c] of credits) {
      if (!paid.has(reference)) fail(`supply ${reference} credited, the provider paid nothing`);
      const tx = c.tx ? input.stub.transactions.get(Number(c.tx)) : undefined;
      if (!tx || tx.reference !== reference || tx.status !== 'approved' || tx.amount !== c.amount)
        fail(`supply ${reference} credited from ${c.tx ?? 'no transaction'}, not its payment`);
    }
    let lost = 0;
    for (const page of input.pagesLost ?? []) {
      lost++;
      const n = credits.get(page.reference)?.n ?? 0;
      if (n !== (page.approved ? 1 : 0))
        fail(
          `supply ${page.reference} (page lost, ${page.approved ? 'paid' : 'refused'}) credited ${n} times`,
        );
    }
    return paid.size + credits.size + lost;
  });

  await run('each withdrawal settles once, as the provider paid it (never twice)', (fail) => {
    const requested = new Map<
      string,
      { amount: number; completed: number; failed: number; refunded: number }
    >();
    for (const e of walletEvents) {
      const id = e.data?.withdrawalId as string | undefined;
      if (!id) continue;
      if (e.type === 'WithdrawalRequested') {
        requested.set(id, { amount: e.data.amount, completed: 0, failed: 0, refunded: 0 });
      }
      const w = requested.get(id);
      if (!w) continue;
      if (e.type === 'WithdrawalCompleted') w.completed++;
      if (e.type === 'WithdrawalFailed') w.failed++;
      if (e.type === 'WithdrawalRefunded') w.refunded++;
    }
    const sent = sentPayouts(input.stub);
    for (const [id, w] of requested) {
      const paid = (sent.get(id) ?? 0) > 0;
      if ((sent.get(id) ?? 0) > 1) {
        fail(`withdrawal ${id} was paid out ${sent.get(id)} times by the provider`);
      } else if (w.completed + w.failed !== 1) {
        fail(`withdrawal ${id}: ${w.completed} completions and ${w.failed} failures`);
      } else if (w.failed !== w.refunded) {
        fail(`withdrawal ${id}: ${w.failed} failures but ${w.refunded} refunds`);
      } else if (paid && w.failed) {
        fail(`withdrawal ${id} was paid out by the provider yet refunded`);
      } else if (w.completed && !paid) {
        fail(`withdrawal ${id} completed but the provider never paid it`);
      }
    }
    return requested.size;
  });

  await run(
    'each input delivery paid once from its hold, its debt opened once (double and concurrent confirmations)',
    (fail) => checkDeliveriesPaidOnce(events, fail),
  );
  await run(
    'the offline client’s queue replayed after the faults: each action at most once, each acknowledged one exactly once, none lost',
    (fail) =>
      checkOfflineReplays(
        events,
        input.commands.filter((c) => c.command === 'offline-deliver'),
        fail,
      ),
  );
  await run(
    'the offline client’s weighings replayed after the faults: each settled at most once, each acknowledged one exactly once, none lost',
    (fail) =>
      checkOfflineWeighings(
        events,
        input.commands.filter((c) => c.command === 'offline-weigh'),
        fail,
      ),
  );
  await run('each request accepted once: one code, one PINEAPLE transfer and debt', (fail) =>
    checkAcceptancesOnce(events, fail),
  );
  await run(
    'no hold below 0; each ACTIVE hold is an ACTIVE assignment with its right remaining (none leaked)',
    (fail) => checkHolds(events, fail),
  );

  // A run's 202 and a weighing at the scale's 201 both say the contract is (to be) paid.
  const ranIds = [
    ...input.commands
      .filter((c) => c.command === 'run-contracts' && c.outcome === 'ack')
      .flatMap((c) => c.meta.ids as string[]),
    ...input.commands
      .filter((c) => ['weigh-and-pay', 'offline-weigh'].includes(c.command) && c.outcome === 'ack')
      .map((c) => c.meta.contractId as string),
  ];
  await run(
    'each run or weighed contract paid exactly once, as its netting says (net to the grower, recoveries); none lost',
    (fail) => checkRunsPaidAsNetted(events, fail, ranIds),
  );
  await run('contract holds equal the open contracts (none below 0, none leaked)', (fail) =>
    checkContractHolds(events, fail),
  );
  await run('each SFD repaid exactly what growers owed it (social financings recovered)', (fail) =>
    checkSfdRepaid(events, fail),
  );
  await run(
    'no contract COMPLETED twice, no second payment or payout per contract; none delivered or run before its acceptance, none accepted twice',
    (fail) => checkCompletedOnce(events, fail),
  );
  await run(
    'each acceptance by the code of the grower’s SMS; wrong codes never accept, never beyond the limit',
    (fail) =>
      checkConsentByCode(
        events,
        input.commands
          .filter((c) => c.command === 'confirm-contract')
          .map((c) => ({
            contractId: String(c.meta.contractId),
            code: String(c.meta.code),
            wrong: c.meta.wrong === true,
            sentAt: Number(c.meta.sentAt),
            outcome: c.outcome,
          })),
        fail,
        {
          maxWrong: MAX_WRONG_CODES,
          hash: (code, salt) => AcceptanceCodes.fromSecret(TORTURE_JWT_SECRET).hash(code, salt),
        },
      ),
  );

  await run(
    'each acceptance by the grower’s SMS reply made once by one right reply (CODE, his phone); one MessageSid spends at most one attempt, accepts at most once; a wrong reply never accepts; a right reply acknowledged is accepted',
    (fail) =>
      checkConsentByReply(
        events,
        input.commands
          .filter((c) => c.command === 'reply-contract')
          .map((c) => ({
            contractId: String(c.meta.contractId),
            growerUserId: String(c.meta.growerUserId),
            phone: String(c.meta.phone),
            sid: String(c.meta.sid),
            code: String(c.meta.code),
            wrong: c.meta.wrong === true,
            ...(typeof c.meta.answeredAt === 'number' ? { answeredAt: c.meta.answeredAt } : {}),
            outcome: c.outcome,
          })),
        fail,
        {
          maxWrong: MAX_WRONG_CODES,
          hash: (code, salt) => AcceptanceCodes.fromSecret(TORTURE_JWT_SECRET).hash(code, salt),
        },
      ),
  );

  await run('the hash chain verifies (ledger:verify)', async (fail) => {
    const report = await verifyLog(db, { catalogue: product.catalogue });
    if (!report.ok) fail(`broken at position ${report.brokenAt}: ${report.reason}`);
    return report.checked;
  });

  await run('every read table equals its rebuild (ledger:check)', async (fail) => {
    let tables = 0;
    for (const projector of product.projectors) {
      const result = await checkProjector(db, projector, {
        decode: catalogueDecoder(product.catalogue),
        sampleLimit: 3,
      });
      tables += projector.tables.length;
      for (const diff of result.differences) {
        const sample = diff.onlyLive[0] ?? diff.onlyReplay[0];
        fail(
          `${projector.name}.${diff.table} differs from its rebuild at ${result.position}: ${diff.onlyLive.length} live-only, ${diff.onlyReplay.length} replay-only, e.g. ${JSON.stringify(sample)}`,
        );
      }
    }
    return tables;
  });

  return { invariants, violations, events: events.length };
}
