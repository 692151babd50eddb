import fc from 'fast-check';
import { fillPath, queryString, type Operation, type Parameter } from './route-table.js';
import {
  arbitraryOf,
  hostileValue,
  MEGABYTE,
  OVERSIZED_AMOUNTS,
  UNSTORABLE_TEXTS,
  UNSTORABLE_URL_TEXTS,
  type JsonSchema,
} from './schema-arbitrary.js';
import type { World } from './world.js';

/** One generated request, printable and replayable as is. */
export interface FuzzRequest {
  route: string;
  method: Operation['method'];
  url: string;
  headers: Record<string, string>;
  payload?: string;
  remoteAddress: string;
  /** Who sends it: a role, 'anonymous' or 'bad-token'. */
  caller: string;
  /** Set when the request must be refused whoever sends it (e.g. a fractional amount). */
  mustRefuse?: string;
}

const isPositiveSafeInteger = (v: unknown) =>
  typeof v === 'number' && Number.isSafeInteger(v) && v > 0;

/** Hostile or generated value for one parameter (path, query, header). */
const parameterValue = (p: Parameter, known: readonly string[]) =>
  fc.oneof(
    { weight: 5, arbitrary: arbitraryOf(p.schema, known) },
    { weight: 2, arbitrary: hostileValue(known) },
  );

const BAD_TOKENS = [
  'Bearer ',
  'Bearer abc',
  'Bearer a.b.c',
  'Basic YWRtaW46YWRtaW4=',
  'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4Iiwicm9sZSI6IlJPTEVfU1VQRVJfQURNSU4ifQ.',
];

function callerArb(world: World) {
  return fc.oneof(
    {
      weight: 1,
      arbitrary: fc.constant({
        caller: 'anonymous',
        headers: {},
        own: [] as string[],
        named: {} as Named,
      }),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(...BAD_TOKENS).map((authorization) => ({
        caller: 'bad-token',
        headers: { authorization },
        own: [] as string[],
        named: {} as Named,
      })),
    },
    {
      weight: 8,
      arbitrary: fc.constantFrom(...world.actors).map((a) => ({
        caller: a === world.stranger ? 'ROLE_INDUSTRIAL (other cluster)' : a.role,
        headers: { ...a.headers },
        // The caller's own ids, often, so commands get past ownership checks to the ledger.
        own: Array.from({ length: 40 }, () => [a.id, a.walletId]).flat(),
        named: namedFor(a, world),
      })),
    },
  );
}

/** Well-formed values by field name, aimed at the caller's own wallet and its peers. */
type Named = Record<string, fc.Arbitrary<unknown>>;

function namedFor(a: World['actors'][number], world: World): Named {
  const others = world.actors.filter((o) => o !== a);
  return {
    source: fc.constant(a.walletId),
    walletId: fc.constant(a.walletId),
    destination: fc.constantFrom(...others.flatMap((o) => [o.walletId, o.id])),
    aggregatorId: fc.constantFrom(
      ...others.filter((o) => o.role === 'ROLE_INDUSTRIAL').map((o) => o.id),
    ),
    amount: fc.integer({ min: 1, max: 3_000 }),
    reason: fc.constantFrom('Achat d’ananas', 'Intrants', 'Transport'),
  };
}

type Body = { payload?: string; contentType?: string; mustRefuse?: string };

/**
 * One of `makers`, drawn as `fc.constantFrom` draws (same seed, same choice), made only once
 * chosen: the bodies are built per request, and building every candidate (megabytes of JSON
 * for the huge ones) cost the fuzz test more CPU than the requests it sends.
 */
function lazily<T>(...makers: [() => T, ...(() => T)[]]): fc.Arbitrary<T> {
  return fc.constantFrom(...makers).map((make) => make());
}

/** A JSON body over the API's 2 MiB limit. */
const OVER_TWO_MEGABYTES = `{"x":"${'a'.repeat(2 * 1024 * 1024 + 10)}"}`;

/** A body for the operation: valid, mutated, malformed, of the wrong type, empty, or huge. */
function bodyArb(
  schema: JsonSchema | undefined,
  known: readonly string[],
  named: Named = {},
): fc.Arbitrary<Body> {
  const json = (value: unknown, mustRefuse?: string): Body => ({
    payload: JSON.stringify(value),
    contentType: 'application/json',
    ...(mustRefuse ? { mustRefuse } : {}),
  });
  const valid = schema ? arbitraryOf(schema, known) : fc.constant({});
  const fields = Object.keys(schema?.properties ?? {});
  // Well-formed for this caller: what a real client sends (reaches the ledger).
  const wellFormed = fc.record(
    Object.fromEntries(
      fields.map((f) => [f, named[f] ?? arbitraryOf(schema!.properties![f]!, known)]),
    ),
    { requiredKeys: schema?.required ?? [] },
  );
  const mutated = fc
    .tuple(
      valid,
      fields.length ? fc.constantFrom(...fields) : fc.constant('extra'),
      hostileValue(known),
    )
    .chain(([value, field, hostile]) => {
      const object = (typeof value === 'object' && value !== null ? { ...value } : {}) as Record<
        string,
        unknown
      >;
      return lazily<Body>(
        // A field replaced by a hostile value.
        () => {
          const replaced = { ...object, [field]: hostile };
          const refuse =
            field === 'amount' && !isPositiveSafeInteger(hostile)
              ? `amount ${JSON.stringify(hostile)?.slice(0, 40)} is not a positive integer`
              : undefined;
          return json(replaced, refuse);
        },
        // A field missing.
        () => {
          const { [field]: _dropped, ...rest } = object;
          return json(rest);
        },
        // Extra fields, prototype pollution attempts.
        () => json({ ...object, extra: hostile, isAdmin: true, role: 'ROLE_SUPER_ADMIN' }),
        () => ({
          payload: `{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}}}`,
          contentType: 'application/json',
        }),
      );
    });
  const malformed = fc.constantFrom<Body>(
    { payload: '{"amount":', contentType: 'application/json' },
    { payload: "{'amount': 1}", contentType: 'application/json' },
    { payload: '{"amount": 1e309}', contentType: 'application/json' },
    { payload: '{"amount": NaN}', contentType: 'application/json' },
    { payload: '\u0000', contentType: 'application/json' },
    { payload: '', contentType: 'application/json' },
    { payload: '[]', contentType: 'application/json' },
    { payload: 'null', contentType: 'application/json' },
    { payload: '"texte"', contentType: 'application/json' },
    { payload: '12', contentType: 'application/json' },
    { payload: '{"a":1}', contentType: 'application/json; charset=utf-16' },
  );
  const wrongType = fc
    .tuple(
      valid,
      fc.constantFrom(
        'text/plain',
        'application/xml',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/octet-stream',
        'image/png',
        '',
      ),
    )
    .map(([value, contentType]): Body => ({ payload: JSON.stringify(value), contentType }));
  const huge = lazily<Body>(
    () => json({ ...Object.fromEntries(fields.map((f) => [f, MEGABYTE])) }),
    () => ({ payload: OVER_TWO_MEGABYTES, contentType: 'application/json' }),
    () => json(Array.from({ length: 10_000 }, (_, i) => i)),
    () => ({ payload: `${'['.repeat(5000)}${']'.repeat(5000)}`, contentType: 'application/json' }),
  );
  // Well-formed (else merely valid) bodies, the base of the targeted cases below.
  const base = Object.keys(named).length && fields.length ? wellFormed : valid;
  const asObject = (value: unknown) =>
    (typeof value === 'object' && value !== null ? { ...value } : {}) as Record<string, unknown>;
  // Text PostgreSQL cannot store in one field, in every field, in a key or deep in an extra
  // field: refused (400) by the validator of every route that has a body schema.
  const unstorable = fc
    .tuple(
      base,
      fc.constantFrom(...(fields.length ? fields : ['extra'])),
      fc.constantFrom(...UNSTORABLE_TEXTS),
      fc.constantFrom('one', 'every', 'key', 'deep'),
    )
    .map(([value, field, text, where]): Body => {
      const object = asObject(value);
      const refuse = (place: string) => `${place} holds ${JSON.stringify(text)}`;
      switch (where) {
        case 'one':
          return json({ ...object, [field]: text }, refuse(`field ${field}`));
        case 'every':
          return json(
            { ...object, ...Object.fromEntries(fields.map((f) => [f, text])) },
            refuse('every field'),
          );
        case 'key':
          return json({ ...object, [`note${text}`]: 'x' }, refuse('a key'));
        default:
          return json({ ...object, extra: { list: ['ok', text] } }, refuse('extra.list.1'));
      }
    });
  // Amounts out of the ledger's range; only a positive safe integer may be accepted.
  const amounts = fc
    .tuple(base, fc.constantFrom(...OVERSIZED_AMOUNTS))
    .map(([value, amount]) =>
      json(
        { ...asObject(value), amount },
        isPositiveSafeInteger(amount) ? undefined : `amount ${amount} is not a positive integer`,
      ),
    );
  return fc.oneof(
    { weight: 6, arbitrary: valid.map((v) => json(v)) },
    ...(Object.keys(named).length && fields.length
      ? [{ weight: 4, arbitrary: wellFormed.map((v) => json(v)) }]
      : []),
    ...(schema ? [{ weight: 2, arbitrary: unstorable }] : []),
    ...(fields.includes('amount') ? [{ weight: 3, arbitrary: amounts }] : []),
    { weight: 6, arbitrary: mutated },
    { weight: 2, arbitrary: malformed },
    { weight: 2, arbitrary: wrongType },
    { weight: 1, arbitrary: fc.constant<Body>({}) },
    { weight: 1, arbitrary: huge },
  );
}

/** The arbitrary of requests to one operation. */
export function requestArb(op: Operation, world: World): fc.Arbitrary<FuzzRequest> {
  const { known } = world;
  // Path ids: often the caller's own (to pass ownership), else anyone's or hostile.
  const pathValues = (own: readonly string[]) =>
    fc.record(
      Object.fromEntries(op.pathParams.map((p) => [p.name, parameterValue(p, [...own, ...known])])),
    );
  const queryValues = fc.record(
    Object.fromEntries([
      ...op.query.map((p) => [p.name, parameterValue(p, known)] as const),
      ['unexpected', hostileValue(known)] as const,
    ]),
    { requiredKeys: op.query.filter((p) => p.required).map((p) => p.name) },
  );
  const idempotencyKey = fc.option(
    fc.oneof(fc.uuid(), fc.constantFrom('', ' ', 'x'.repeat(300), '\u00e9t\u00e9', 'k')),
    { freq: 3 },
  );
  const sendsBody = op.body !== undefined || op.method !== 'GET';
  // Now and then a path or query parameter holding a NUL: refused (400) by the validator.
  const params = [
    ...op.pathParams.map((p) => ({ in: 'path' as const, name: p.name })),
    ...op.query.map((p) => ({ in: 'query' as const, name: p.name })),
  ];
  const taint = params.length
    ? fc.option(
        fc.record({
          param: fc.constantFrom(...params),
          text: fc.constantFrom(...UNSTORABLE_URL_TEXTS),
        }),
        { freq: 10 },
      )
    : fc.constant(null);
  return callerArb(world)
    .chain((caller) =>
      fc.record({
        path: pathValues(caller.own),
        query: queryValues,
        caller: fc.constant(caller),
        key: idempotencyKey,
        body: sendsBody
          ? bodyArb(op.body, [...caller.own, ...known], caller.named)
          : fc.constant<Body>({}),
        ip: fc.tuple(fc.nat(255), fc.nat(255)),
        taint,
      }),
    )
    .map(({ path: generatedPath, query: generatedQuery, caller, key, body, ip, taint }) => {
      const path: Record<string, unknown> = { ...generatedPath };
      const query: Record<string, unknown> = { ...generatedQuery };
      let mustRefuse = body.mustRefuse;
      if (taint) {
        (taint.param.in === 'path' ? path : query)[taint.param.name] = taint.text;
        mustRefuse = `${taint.param.in} parameter ${taint.param.name} holds ${JSON.stringify(taint.text)}`;
      }
      const headers: Record<string, string> = { ...caller.headers };
      if (key !== null) headers['idempotency-key'] = key;
      if (body.contentType !== undefined) headers['content-type'] = body.contentType;
      return {
        route: op.name,
        method: op.method,
        url: `${fillPath(op.path, path)}${queryString(query)}`,
        headers,
        ...(body.payload !== undefined ? { payload: body.payload } : {}),
        remoteAddress: `10.9.${ip[0]}.${ip[1]}`,
        caller: caller.caller,
        ...(mustRefuse ? { mustRefuse } : {}),
      };
    });
}

/** Requests to every operation, each operation equally likely. */
/**
 * One arbitrary per route, taken in turn by the fuzzer (request i goes to route
 * i mod routes): every route is reached once the count passes the number of routes, where
 * drawing the route at random can miss one.
 */
export function everyRouteArbs(operations: Operation[], world: World): fc.Arbitrary<FuzzRequest>[] {
  return operations.map((op) => requestArb(op, world));
}
