import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { CommandPipeline, EventStore } from '@filiere/event-store';
import {
  beninDay,
  InProcessLoop,
  narrowDb,
  type Foreground,
  type Logger,
  type LoopRunner,
} from '@filiere/platform';
import type { PushPublisher } from '@filiere/projections';
import type { JobModule, ProductTables } from '../../kernel/module.js';
import {
  registerWalletStreams,
  type AmountLimits,
  type WalletJobsTables,
} from '../../wallet/index.js';
import { contractStreams } from '../catalogue.js';
import {
  DeliveryContractCommands,
  type ContractFactsTables,
} from '../commands/delivery-contract-commands.js';
import { ContractRunRunner, ContractRuns, type RunTables } from '../run/run-contracts.js';
import { ContractSettler, type SettleFactsTables } from '../run/settle-contract.js';
import type { ContractsTables } from '../tables.js';

/** How many due contracts one OUTTIME sweep looks at. */
const OUT_OF_TIME_BATCH = 200;

/**
 * The scheduled OUTTIME: CONFIRMED contracts whose delivery date is before today (read from
 * `delivery_contracts`) go to the command, whose decider writes DeliveryContractOutOfTime only
 * while the contract is still CONFIRMED and past its date. Any number of processes may sweep
 * at once: the stream's version orders them and the losers write nothing.
 */
export class OutOfTimeRunner implements LoopRunner {
  constructor(
    private readonly db: Kysely<Pick<ContractsTables, 'delivery_contracts'>>,
    private readonly commands: DeliveryContractCommands,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async runDue(): Promise<number> {
    const today = beninDay(this.now());
    const due = await this.db
      .selectFrom('delivery_contracts')
      .select('id')
      .where('status', '=', 'CONFIRMED')
      .where('delivery_date', '<', sql<string>`${today}::date`)
      .orderBy('delivery_date')
      .limit(OUT_OF_TIME_BATCH)
      .execute();
    let changed = 0;
    for (const { id } of due) {
      if (await this.commands.markOutOfTime(id)) changed++;
    }
    return changed;
  }
}

export interface ContractsBackground {
  runs: ContractRuns;
  runner: ContractRunRunner;
  settler: ContractSettler;
  outOfTime: OutOfTimeRunner;
}

/** The run's services and the OUTTIME runner over a pipeline (the API's, or the worker's own). */
export function contractsBackground(options: {
  db: Kysely<ProductTables>;
  pipeline: CommandPipeline;
  publish: PushPublisher;
  logger: Logger;
  limits?: AmountLimits;
  clock?: () => Date;
}): ContractsBackground {
  const { db, pipeline, publish, logger, limits, clock } = options;
  const settler = new ContractSettler(narrowDb<SettleFactsTables>()(db), pipeline, {
    ...(limits ? { limits } : {}),
    ...(clock ? { clock } : {}),
  });
  const runDb = narrowDb<RunTables & WalletJobsTables>()(db);
  const runs = new ContractRuns(narrowDb<RunTables>()(db), pipeline.store);
  const runner = new ContractRunRunner(runDb, settler, publish, logger);
  const commands = new DeliveryContractCommands(
    narrowDb<ContractFactsTables>()(db),
    pipeline,
    clock,
  );
  const outOfTime = new OutOfTimeRunner(
    narrowDb<Pick<ContractsTables, 'delivery_contracts'>>()(db),
    commands,
    clock,
  );
  return { runs, runner, settler, outOfTime };
}

/** The runs every second (and when a run is recorded in this process), OUTTIME every minute. */
export function contractLoops(
  background: ContractsBackground,
  logger: Logger,
  foreground?: Foreground,
): InProcessLoop[] {
  return [
    new InProcessLoop(background.runner, logger, {
      name: 'contract runs',
      pollMs: 1000,
      ...(foreground ? { marks: foreground } : {}),
    }),
    new InProcessLoop(background.outOfTime, logger, {
      name: 'contracts out of time',
      pollMs: 60_000,
    }),
  ];
}

/**
 * The contract runs and the OUTTIME sweep in the worker (with REDIS_URL; without it the API
 * runs them): the same runners on in-process loops over the worker's own pipeline. Several
 * workers may run at once: jobs are leased, one claim at a time.
 */
export const contractJobs: JobModule = {
  name: 'contract-runs',
  async start(ctx) {
    const pipeline = new CommandPipeline(new EventStore(ctx.db, ctx.catalogue), {
      batchMax: ctx.config.COMMAND_BATCH_MAX,
      batchWaitMs: ctx.config.COMMAND_BATCH_WAIT_MS,
    });
    for (const stream of contractStreams) pipeline.registerStreamType(stream);
    registerWalletStreams(pipeline);
    const background = contractsBackground({
      db: ctx.db,
      pipeline,
      publish: ctx.publish,
      logger: ctx.logger,
      limits: {
        maxCommandAmount: ctx.config.MAX_COMMAND_AMOUNT,
        maxBalance: ctx.config.MAX_BALANCE,
      },
    });
    const loops = contractLoops(background, ctx.logger);
    loops.forEach((l) => l.start());
    return {
      async close() {
        await Promise.all(loops.map((l) => l.stop()));
        await pipeline.close();
      },
    };
  },
};
