import type { FastifyInstance } from 'fastify';
import type { RoleCode, RouteAccess } from '../http/auth.js';
import type { JsonSchema } from './schema-arbitrary.js';

export interface Parameter {
  name: string;
  required: boolean;
  schema: JsonSchema;
}

/** One operation of the OpenAPI document, with the access its guard declares. */
export interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The OpenAPI path, e.g. `/api/users/{id}`. */
  path: string;
  /** `METHOD /path`, the name tests and reports use. */
  name: string;
  access: RouteAccess;
  pathParams: Parameter[];
  query: Parameter[];
  headers: Parameter[];
  body?: JsonSchema;
}

/** Whether a route's declared access lets `role` (undefined: no token) past its guard. */
export function allowedBy(access: RouteAccess, role: RoleCode | undefined): boolean {
  if (access === 'public') return true;
  if (!role) return false;
  return access === 'signed-in' || access.includes(role);
}

/** Every operation of the app's OpenAPI document (the app must be ready). */
export function operationsOf(app: FastifyInstance): Operation[] {
  const doc = app.swagger() as { paths: Record<string, Record<string, any>> };
  const operations: Operation[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [m, op] of Object.entries(ops)) {
      const method = m.toUpperCase() as Operation['method'];
      const params = (op.parameters ?? []) as (Parameter & { in: string })[];
      const pick = (where: string) =>
        params
          .filter((p) => p.in === where)
          .map((p) => ({ name: p.name, required: !!p.required, schema: p.schema ?? {} }));
      const fastifyUrl = path.replace(/\{(\w+)\}/g, ':$1');
      operations.push({
        method,
        path,
        name: `${method} ${path}`,
        access: app.routeAccess.get(`${method} ${fastifyUrl}`) ?? 'public',
        pathParams: pick('path'),
        query: pick('query'),
        headers: pick('header'),
        ...(op.requestBody?.content?.['application/json']?.schema
          ? { body: op.requestBody.content['application/json'].schema as JsonSchema }
          : {}),
      });
    }
  }
  return operations;
}

/** The path with its parameters substituted (URL-encoded). */
export function fillPath(path: string, values: Record<string, unknown>): string {
  return path.replace(/\{(\w+)\}/g, (_m, name: string) =>
    encodePathValue(String(values[name] ?? '')),
  );
}

/** URL-encodes; a lone surrogate becomes the invalid UTF-8 `%ED%A0%80` (a malformed URI). */
function encodePathValue(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    const wellFormed = value.replace(/[\uD800-\uDFFF]/g, '\uFFFD');
    return encodeURIComponent(wellFormed).replaceAll('%EF%BF%BD', '%ED%A0%80');
  }
}

/** A query string from values (arrays repeat the key); '' when none. */
export function queryString(values: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) continue;
    for (const v of [value].flat()) {
      search.append(name, typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));
    }
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}
