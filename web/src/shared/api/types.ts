/**
 * The API's shapes, read from the types generated from its OpenAPI document (schema.gen.ts,
 * `npm run api:types`): a screen names an operation by its path and method, never restates
 * what the server's zod schemas already say.
 */
import type { paths } from './schema.gen.js';

export type { components, operations, paths } from './schema.gen.js';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type Json<A> = A extends { content: { 'application/json': infer J } } ? J : never;
type Success<R> = R extends { 200: infer A }
  ? A
  : R extends { 201: infer A }
    ? A
    : R extends { 202: infer A }
      ? A
      : never;

/** The JSON a successful call of `M P` answers (its 200, else its 201, else its 202). */
export type ApiResponse<P extends keyof paths, M extends Method = 'get'> = Json<
  Success<Operation<P, M>['responses']>
>;

/** The JSON body `M P` takes. */
export type ApiBody<P extends keyof paths, M extends Method = 'post'> =
  Operation<P, M> extends { requestBody?: infer B } ? Json<NonNullable<B>> : never;

/** The query parameters `M P` takes. */
export type ApiQuery<P extends keyof paths, M extends Method = 'get'> =
  Operation<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** A list answer's row. */
export type RowOf<L> = L extends { data: readonly (infer R)[] }
  ? R
  : L extends readonly (infer R)[]
    ? R
    : never;
