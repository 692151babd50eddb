import { z } from 'zod';

/**
 * The URL state of a searchable, paginated list (`?page=&q=&status=`, plus a screen's own
 * params), zod-typed for the route's `validateSearch`. A bad value reads as absent (the
 * default) rather than failing the page.
 */
export const PAGE_SIZE = 10;

/** `page`: a whole number from 1; absent means 1. */
export const pageParam = z.coerce.number().int().min(1).optional().catch(undefined);

/** A text param (`q`, a role code…): trimmed, absent when empty. */
export const textParam = z.string().trim().min(1).optional().catch(undefined);

/** One of `values` (a status, a tab…), else absent. */
export const enumParam = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values).optional().catch(undefined);

/** `page` and `q`, and the screen's own params (`status: enumParam(STATUSES)`, a tab…). */
export function listSearch<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.object({ page: pageParam, q: textParam, ...shape });
}

/** What a list screen reads from its URL. */
export interface ListSearch<S extends string = string> {
  page?: number | undefined;
  q?: string | undefined;
  status?: S | undefined;
}

/** What a list query asks the API for: the page is always set. */
export interface ListQuery<S extends string = string> {
  page: number;
  q?: string | undefined;
  status?: S | undefined;
}

export function listQuery<S extends string>(search: ListSearch<S>): ListQuery<S> {
  return { page: search.page ?? 1, q: search.q, status: search.status };
}

/** The API's list parameters for one page of `PAGE_SIZE` rows. */
export function pageParams(query: ListQuery): Record<string, string | number | undefined> {
  return { page: query.page, limit: PAGE_SIZE, q: query.q, status: query.status };
}
