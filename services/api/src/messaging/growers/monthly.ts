import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { narrowDb, type Logger, type LoopRunner } from '@filiere/platform';
import { GrowerStatements, type GrowerStatementTables } from '../../contracts/index.js';
import { createSms, identityUsers, type IdentityTables } from '../../identity/index.js';
import type { ProductTables } from '../../kernel/tables.js';
import { seasonIdOn, type SeasonsTables } from '../../seasons/index.js';
import { walletBalanceOf } from '../../wallet/index.js';
import { SmsOptOuts } from '../optout/opt-outs.js';
import type { MessagingTables } from '../tables.js';
import { monthlySummarySms } from './texts.js';

export const MONTHLY_SUMMARY = 'monthly-summary';

type Db = MessagingTables & IdentityTables & Pick<SeasonsTables, 'seasons'>;

/** The month before the one `now` falls in, in Benin (UTC+1, no summer time). */
export function previousMonth(now: Date): { key: string; from: string; to: string } {
  const benin = new Date(now.getTime() + 3_600_000);
  const first = new Date(Date.UTC(benin.getUTCFullYear(), benin.getUTCMonth() - 1, 1));
  const last = new Date(Date.UTC(benin.getUTCFullYear(), benin.getUTCMonth(), 0));
  const day = (d: Date) => d.toISOString().slice(0, 10);
  return { key: day(first).slice(0, 7), from: day(first), to: day(last) };
}

/**
 * Once a month, each grower with activity in the month that ended (a contract created or
 * delivered, a debt opened) gets his month by SMS: deliveries, payments received, advances
 * still owed, his balance — unless he opted out. One per grower and month (`dedupe_key`
 * `monthly-summary:<userId>:<YYYY-MM>`): a second run, a crash half-way or two workers write
 * each grower's once. `messaging_checkpoints` (`monthly-summary`, position YYYYMM) marks the
 * month done so that the hourly poll costs one read.
 */
export class MonthlySummaries implements LoopRunner {
  private readonly db: Kysely<Db>;
  private readonly statements: GrowerStatements;
  private readonly optOuts: SmsOptOuts;

  static of<DB extends Db & GrowerStatementTables & ProductTables>(
    db: Kysely<DB>,
    logger: Logger,
    clock: () => Date = () => new Date(),
  ): MonthlySummaries {
    return new MonthlySummaries(
      narrowDb<Db>()(db),
      // The statement's reads only: no signed link is made here.
      new GrowerStatements(
        narrowDb<GrowerStatementTables>()(db),
        narrowDb<ProductTables>()(db),
        '',
      ),
      narrowDb<ProductTables>()(db),
      logger,
      clock,
    );
  }

  constructor(
    db: Kysely<Db>,
    statements: GrowerStatements,
    private readonly product: Kysely<ProductTables>,
    private readonly logger: Logger,
    private readonly clock: () => Date,
  ) {
    this.db = db;
    this.statements = statements;
    this.optOuts = SmsOptOuts.of(db);
  }

  async runDue(): Promise<number> {
    const month = previousMonth(this.clock());
    const mark = Number(month.key.replace('-', ''));
    const done = await this.db
      .selectFrom('messaging_checkpoints')
      .select('position')
      .where('name', '=', MONTHLY_SUMMARY)
      .executeTakeFirst();
    if (done && Number(done.position) >= mark) return 0;
    const growers = await this.statements.activeGrowers(month);
    const seasonId = (await seasonIdOn(this.db, month.to)) ?? undefined;
    const sms = createSms({ NODE_ENV: 'production' }, this.db, this.logger);
    let written = 0;
    for (const { growerId, userId } of growers) {
      if (await this.optOuts.optedOut(userId)) continue;
      const user = await this.db
        .selectFrom(identityUsers().as('u'))
        .select('u.phone')
        .where('u.id', '=', userId)
        .where('u.deleted_at', 'is', null)
        .executeTakeFirst();
      if (!user?.phone) continue;
      const statement = await this.statements.data(growerId, month);
      const delivered = statement.contracts.filter(
        (c) =>
          c.status !== 'CANCELED' &&
          c.deliveredOn !== null &&
          c.deliveredOn >= month.from &&
          c.deliveredOn <= month.to,
      );
      const { balance } = await walletBalanceOf(this.product, userId);
      await sms.send({
        to: user.phone,
        userId,
        ...(seasonId !== undefined ? { seasonId } : {}),
        kind: 'monthly-summary',
        key: `${MONTHLY_SUMMARY}:${userId}:${month.key}`,
        text: monthlySummarySms({
          month: `${month.key.slice(5)}/${month.key.slice(0, 4)}`,
          deliveries: delivered.length,
          deliveredKg: delivered.reduce((t, c) => t + (c.deliveredKg ?? 0), 0),
          paid: delivered.reduce(
            (t, c) => t + (c.status === 'COMPLETED' ? (c.growerNet ?? 0) : 0),
            0,
          ),
          owed: statement.totals.outstanding,
          balance,
        }),
      });
      written += 1;
    }
    await this.db
      .insertInto('messaging_checkpoints')
      .values({ name: MONTHLY_SUMMARY, position: mark })
      .onConflict((c) => c.column('name').doUpdateSet({ position: mark, updated_at: sql`now()` }))
      .execute();
    this.logger.info(
      { month: month.key, growers: growers.length, written },
      'monthly summaries written',
    );
    return 0;
  }
}
