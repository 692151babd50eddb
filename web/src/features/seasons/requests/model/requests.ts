import { z } from 'zod';
import { enumParam, listSearch, type ListSearch } from '../../../../shared/search/list-search.js';

/** The request types (spec §2.4): inputs, pineapple advances, social financing. */
export const REQUEST_TYPES = ['INPUT', 'PINEAPLE', 'SOCIAL'] as const;
export type RequestType = (typeof REQUEST_TYPES)[number];

/** The status tabs, CREATED first (the default). */
export const REQUEST_STATUSES = ['CREATED', 'CONFIRMED', 'REJECTED'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

/** A list's URL state: page, search, status tab (absent = CREATED). */
export const requestsSearch = listSearch({ status: enumParam(REQUEST_STATUSES) });
export type RequestsSearch = ListSearch<RequestStatus>;

/** The badge kind of each status. */
export const STATUS_KIND = {
  CREATED: 'warning',
  CONFIRMED: 'success',
  REJECTED: 'danger',
} as const;

/** The reject modal's form: the reason is required (the server refuses an empty one). */
export const rejectSchema = z.object({
  reason: z
    .string()
    .trim()
    .min(1, { message: 'validation:required' })
    .max(1000, { message: 'seasonRequests:errors.reasonTooLong' }),
});
export type RejectForm = z.infer<typeof rejectSchema>;

/** The filing form (a grower's request): fields by type. */
export const fileSchema = z
  .object({
    type: z.enum(REQUEST_TYPES),
    growerId: z.string().min(1, { message: 'validation:required' }),
    seasonId: z.string().min(1, { message: 'validation:required' }),
    fertilizerId: z.string().optional(),
    quantity: z
      .number({ message: 'validation:required' })
      .int({ message: 'validation:invalid' })
      .optional(),
    amount: z
      .number({ message: 'validation:required' })
      .int({ message: 'validation:invalid' })
      .optional(),
    sfdUserId: z.string().optional(),
  })
  .superRefine((v, ctx) => {
    const need = (path: string, ok: boolean, message = 'validation:required') => {
      if (!ok) ctx.addIssue({ code: 'custom', path: [path], message });
    };
    if (v.type === 'INPUT') need('fertilizerId', Boolean(v.fertilizerId));
    if (v.type === 'INPUT' || v.type === 'PINEAPLE') {
      need('quantity', v.quantity !== undefined);
      if (v.quantity !== undefined) need('quantity', v.quantity >= 1, 'seasonRequests:errors.min1');
    }
    if (v.type === 'PINEAPLE' || v.type === 'SOCIAL') {
      need('amount', v.amount !== undefined);
      if (v.amount !== undefined) need('amount', v.amount >= 1, 'seasonRequests:errors.min1');
    }
    if (v.type === 'SOCIAL') need('sfdUserId', Boolean(v.sfdUserId));
  });
export type FileForm = z.infer<typeof fileSchema>;

/** The body POST season-requests takes for a filled form (only the type's fields). */
export function fileBody(form: FileForm) {
  return {
    type: form.type,
    growerId: form.growerId,
    seasonId: Number(form.seasonId),
    ...(form.type === 'INPUT'
      ? { fertilizerId: Number(form.fertilizerId), quantity: form.quantity }
      : {}),
    ...(form.type === 'PINEAPLE' ? { amount: form.amount, quantity: form.quantity } : {}),
    ...(form.type === 'SOCIAL' ? { amount: form.amount, sfdUserId: form.sfdUserId } : {}),
  };
}

/** What the bulk answer says: the success text when any id passed, the refusals to warn. */
export function bulkOutcome(answer: {
  done: number;
  results: { ok: boolean; message?: string | undefined }[];
}): { success: boolean; warnings: string[] } {
  const warnings = [
    ...new Set(answer.results.filter((r) => !r.ok).map((r) => r.message ?? '')),
  ].filter(Boolean);
  return { success: answer.done > 0, warnings };
}
