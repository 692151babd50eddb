import dayjs from 'dayjs';
import { z } from 'zod';
import { api } from '../../../shared/api/client.js';
import type { ApiResponse } from '../../../shared/api/types.js';
import { msg } from '../../../shared/validation/rules.js';

/** A statement's period as the API takes it: Benin days, inclusive (YYYY-MM-DD). */
export interface StatementPeriod {
  from: string;
  to: string;
}

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The default period: from the 1st of January of this year to today. */
export function defaultStatementPeriod(now: Date = new Date()): StatementPeriod {
  const to = dayjs(now).format('YYYY-MM-DD');
  return { from: `${to.slice(0, 4)}-01-01`, to };
}

/**
 * The period form: both days required, the start not after the end, the end not after today
 * (the API says the same in French: 'La date de début doit précéder la date de fin').
 */
export function statementPeriodSchema(now: Date = new Date()) {
  const today = dayjs(now).format('YYYY-MM-DD');
  return z
    .object({
      from: z.string().regex(ISO_DAY, { message: msg.required }),
      to: z
        .string()
        .regex(ISO_DAY, { message: msg.required })
        .refine((to) => to <= today, { message: 'contracts:statement.futureEnd' }),
    })
    .refine((p) => p.from <= p.to, {
      path: ['from'],
      message: 'contracts:statement.order',
    });
}

/**
 * `GET contracts/statement-download/{growerId}` (or `/me` for the signed-in grower) → `{ url }`:
 * a 10-minute signed link to the grower's statement PDF over the period.
 */
export function growerStatementLink(
  growerId: string | 'me',
  period: StatementPeriod,
): Promise<{ url: string }> {
  return api<ApiResponse<'/api/contracts/statement-download/{growerId}'>>(
    `/contracts/statement-download/${encodeURIComponent(growerId)}`,
    {
      query: { from: period.from, to: period.to },
    },
  );
}

/** Is this signed PDF link a statement's (its token's kind code is `s`)? */
export const isStatementLink = (link: string) => /\/api\/contracts\/pdf\/s-/.test(link);
