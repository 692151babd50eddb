import { randomInt } from 'node:crypto';
import { formatReport } from './report.js';
import { runTorture } from './run.js';

/**
 * `npm run torture [-- --minutes N] [-- --seed S]`: the bank test under faults (default
 * 10 minutes of load, a random seed). Exit 0 when every invariant holds, 1 on a violation
 * (the first counterexample and the seed to replay are printed), 2 on bad arguments or when
 * the environment could not start.
 */
function parseArgs(argv: string[]): { minutes: number; seed: number } {
  let minutes = 10;
  let seed = randomInt(1, 2 ** 31);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [name, inline] = arg.split('=', 2);
    const value = inline ?? argv[++i];
    if (name === '--minutes') minutes = Number(value);
    else if (name === '--seed') seed = Number(value);
    else throw new Error(`unknown argument ${arg} (use --minutes N, --seed S)`);
  }
  if (!Number.isFinite(minutes) || minutes <= 0)
    throw new Error('--minutes must be a positive number');
  if (!Number.isInteger(seed) || seed < 0 || seed >= 2 ** 32) {
    throw new Error('--seed must be an integer between 0 and 4294967295');
  }
  return { minutes, seed };
}

async function main(): Promise<number> {
  let args: { minutes: number; seed: number };
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    return 2;
  }
  const print = (line: string) => process.stdout.write(`${line}\n`);
  // Interrupted: exit, and the environment's exit hook kills every process it started.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      print(`interrupted; replay with npm run torture -- --seed ${args.seed}`);
      process.exit(130);
    });
  }
  try {
    const report = await runTorture({
      seed: args.seed,
      loadMs: Math.round(args.minutes * 60_000),
      log: (line) => print(`[torture] ${line}`),
    });
    print(formatReport(report));
    return report.ok ? 0 : 1;
  } catch (error) {
    print(`torture: could not run (${(error as Error).stack ?? String(error)})`);
    print(
      `seed ${args.seed}: replay with npm run torture -- --seed ${args.seed} --minutes ${args.minutes}`,
    );
    return 2;
  }
}

process.exitCode = await main();
