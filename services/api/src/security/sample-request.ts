import { randomUUID } from 'node:crypto';
import { TEST_PASSWORD } from '../identity/test-support.js';
import { fillPath, queryString, type Operation } from './route-table.js';
import type { JsonSchema } from './schema-arbitrary.js';
import type { Actor } from './world.js';

/** What a sample request may name: the caller, a peer of its cluster, a fresh victim. */
export interface SampleContext {
  caller: Actor | undefined;
  peer: Actor;
  clusterId: string;
  /** A new user the caller manages (for routes that delete or (de)activate a user). */
  victim(): Promise<string>;
}

let n = 0;
const uniqueEmail = () => `sample.${++n}.${Date.now()}@securite.bj`;

/**
 * Routes whose `{id}` is a user the caller manages rather than the caller itself (every user
 * PATCHes itself: PATCH /users/{id} is about the caller's own data).
 */
const MANAGED_USER_ROUTES = new Set([
  'DELETE /api/users/{id}',
  'GET /api/users/activate-account/{id}',
  // A grower of the caller's cluster (the cluster manager's victim is one).
  'GET /api/users/{id}/reset-pin',
]);

/** Routes whose `{id}` is a season or an industrial link (numeric; 999 999 exists nowhere). */
const SEASON_ID_ROUTES = new Set([
  '/api/clusters/{id}',
  '/api/clusters/{id}/industrial',
  '/api/clusters/{id}/industrial/{userId}',
  '/api/clusters/{id}/linked-industrials',
  '/api/clusters/activate-cluster/{id}',
  '/api/clusters/delete-industrial-link/{id}',
  '/api/seasons/{id}/accept',
  '/api/seasons/{id}/amounts',
]);

/** A value for a named parameter or field, aimed at the caller's own data. */
async function valueFor(
  op: Operation,
  name: string,
  schema: JsonSchema,
  ctx: SampleContext,
): Promise<unknown> {
  const me = ctx.caller ?? ctx.peer;
  switch (name) {
    case 'id':
      if (MANAGED_USER_ROUTES.has(op.name)) return ctx.victim();
      if (SEASON_ID_ROUTES.has(op.path)) return 999_999;
      if (op.path === '/api/transaction/{id}') return 999_999_999;
      if (op.path.startsWith('/api/supply/validate-bank-supply')) return 'APP-NONE';
      return me.id;
    case 'userId':
      // A payout request is about a member (the peer grower), never the staff caller.
      if (op.path.startsWith('/api/payout-requests')) return ctx.peer.id;
      return me.id;
    case 'aggregatorId':
      return name === 'aggregatorId' ? ctx.peer.id : me.id;
    case 'walletId':
    case 'source':
      return me.walletId;
    case 'destination':
      return ctx.peer.walletId;
    case 'year':
      return 2026;
    // A season's dates (POST /api/clusters): start not before today.
    case 'from':
    case 'to':
      return op.path === '/api/clusters' ? '2099-01-01' : sampleOf(schema);
    case 'clusterId':
      return ctx.clusterId;
    case 'jobId':
      return randomUUID();
    case 'transactionId':
      return 'sbx_none';
    case 'reference':
      return 'APP-NONE';
    case 'email':
      return op.name === 'PATCH /api/users/me/email' ? me.email : uniqueEmail();
    case 'password':
    case 'oldPassword':
    case 'newPassword':
    case 'confirmPassword':
      return TEST_PASSWORD;
    case 'token':
      return 'nope';
    case 'typeUser':
      return 'industrial';
    case 'amount':
      return 1;
    case 'phone':
      return '0197000000';
    // Locations: a place that exists on one path (Atlantique › Allada › Agbanou › Acclohoue).
    case 'departmentCode':
      return 'D03';
    case 'communeCode':
      return 'C017';
    case 'arrondissementCode':
      return 'A098';
    case 'villageCode':
      return 'A098-001';
    default:
      return sampleOf(schema);
  }
}

/** The simplest value the schema accepts. */
export function sampleOf(schema: JsonSchema): unknown {
  if (schema.enum?.length) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'integer':
    case 'number':
      return Math.max(schema.minimum ?? 1, 1);
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      if (schema.format === 'uuid') return randomUUID();
      return 'Valeur'.padEnd(schema.minLength ?? 1, 'x');
  }
}

/** A well-formed request to `op` by `ctx.caller`, about the caller's own data. */
export async function sampleRequest(op: Operation, ctx: SampleContext) {
  const path: Record<string, unknown> = {};
  for (const p of op.pathParams) path[p.name] = await valueFor(op, p.name, p.schema, ctx);
  const query: Record<string, unknown> = {};
  for (const p of op.query.filter((q) => q.required)) {
    query[p.name] = await valueFor(op, p.name, p.schema, ctx);
  }
  let payload: Record<string, unknown> | undefined;
  if (op.body) {
    payload = {};
    for (const name of op.body.required ?? []) {
      payload[name] = await valueFor(op, name, op.body.properties?.[name] ?? {}, ctx);
    }
  }
  return {
    method: op.method,
    url: `${fillPath(op.path, path)}${queryString(query)}`,
    headers: {
      ...(ctx.caller ? ctx.caller.headers : {}),
      'idempotency-key': randomUUID(),
    },
    ...(payload ? { payload } : {}),
    remoteAddress: `10.7.${Math.floor(n / 250) % 250}.${(n++ % 250) + 1}`,
  };
}
