import fc from 'fast-check';

/** The part of JSON Schema (as fastify-type-provider-zod writes it into the OpenAPI document) we read. */
export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean | number;
  exclusiveMaximum?: boolean | number;
  nullable?: boolean;
  default?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

/** Values that have broken parsers, coercions and SQL before. */
export const HOSTILE_STRINGS = [
  '',
  ' ',
  '1e309',
  '-1e309',
  'NaN',
  'Infinity',
  '-0',
  '0x10',
  '9007199254740993',
  '-1',
  '1.5',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  "'",
  '"',
  '\\',
  '%',
  '_',
  '--',
  ';',
  "' OR 1=1 --",
  "'; DROP TABLE events; --",
  '\u0000',
  'a\u0000b',
  '../../etc/passwd',
  '%2e%2e%2f',
  '<script>alert(1)</script>',
  '${7*7}',
  '__proto__',
  'constructor',
  'Ω≈ç√∫˜µ≤≥÷',
  '😀👍🏾',
  '\u202e\u0644\u0627',
  '\uD800',
  'ÉÈÀÙ Ç œ',
] as const;

export const HOSTILE_NUMBERS = [
  0,
  -0,
  -1,
  0.5,
  -0.5,
  1.0000001,
  2 ** 31,
  2 ** 53,
  2 ** 53 + 2,
  Number.MAX_SAFE_INTEGER,
  -Number.MAX_SAFE_INTEGER,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
  1e21,
  -1e21,
] as const;

/**
 * Text PostgreSQL cannot store (NUL, lone UTF-16 surrogates): every route must refuse it
 * with a 400, wherever the request carries it. Past validation, a transfer reason holding
 * one would fail its whole group-commit batch.
 */
export const UNSTORABLE_TEXTS = [
  '\u0000',
  'Paiement\u0000 intrants',
  '\uD800',
  'fin \uDBFF',
  '\uDC00 début',
  '\uDFFF\uD800',
  'a\u0000\uD800b',
] as const;

/** The unstorable texts a URL can carry (a lone surrogate cannot be percent-encoded). */
export const UNSTORABLE_URL_TEXTS = UNSTORABLE_TEXTS.filter((t) => t.includes('\u0000'));

/**
 * Amounts at and past the ledger's range: above 2^53 (not exact in a double), the largest
 * safe integer, 10^15, negative and fractional. Only positive safe integers may be accepted.
 */
export const OVERSIZED_AMOUNTS = [
  2 ** 53,
  2 ** 53 + 2,
  2 ** 64,
  1e21,
  1e15,
  1e15 + 1,
  Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER - 1,
  -Number.MAX_SAFE_INTEGER,
  -1e15,
  -1,
  -0.5,
  0.5,
  1.5,
  1e15 + 0.5,
  4503599627370495.5,
] as const;

/** A 1 MB string (the body limit is 2 MB: this one reaches the validators). */
export const MEGABYTE = 'é'.repeat(512 * 1024);

/** Any hostile JSON value: wrong types, edge numbers, strings above, big arrays and objects. */
export const hostileValue = (extra: readonly unknown[] = []): fc.Arbitrary<unknown> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom<unknown>(...HOSTILE_STRINGS) },
    { weight: 4, arbitrary: fc.constantFrom<unknown>(...HOSTILE_NUMBERS) },
    { weight: 1, arbitrary: fc.constantFrom<unknown>(null, true, false, [], {}, [1, 2], MEGABYTE) },
    { weight: 1, arbitrary: fc.constantFrom<unknown>({ __proto__: { admin: true } }) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
    { weight: 1, arbitrary: fc.double() },
    ...(extra.length ? [{ weight: 4, arbitrary: fc.constantFrom<unknown>(...extra) }] : []),
  );

const isUuidPattern = (pattern: string | undefined) =>
  !!pattern && /\[0-9a-f/i.test(pattern) && pattern.includes('{12}');
const typeOf = (s: JsonSchema): string | undefined =>
  Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;

/**
 * An arbitrary of values the schema accepts (or nearly: patterns and bounds are
 * honoured, formats we know are generated). `known` lists real values (ids of
 * seeded users, wallets, references) mixed into strings, so requests reach past
 * validation into the handlers.
 */
export function arbitraryOf(
  schema: JsonSchema,
  known: readonly string[] = [],
): fc.Arbitrary<unknown> {
  const base = baseArbitrary(schema, known);
  return schema.nullable ? fc.option(base, { nil: null, freq: 8 }) : base;
}

function baseArbitrary(schema: JsonSchema, known: readonly string[]): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum?.length) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((s) => arbitraryOf(s, known)));
  if (schema.allOf?.length) return arbitraryOf(Object.assign({}, ...schema.allOf), known);
  switch (typeOf(schema)) {
    case 'integer':
      return integerIn(schema);
    case 'number':
      return fc.double({
        min: schema.minimum ?? -1e9,
        max: schema.maximum ?? 1e9,
        noNaN: true,
        noDefaultInfinity: true,
      });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(arbitraryOf(schema.items ?? {}, known), { maxLength: 5 });
    case 'object':
      return objectOf(schema, known);
    case 'string':
      return stringOf(schema, known);
    default:
      // No schema (z.unknown, z.coerce.date…): anything printable.
      return fc.oneof(
        fc.string({ maxLength: 30 }),
        fc.date().map((d) => d.toISOString()),
      );
  }
}

function integerIn(schema: JsonSchema): fc.Arbitrary<number> {
  let min = schema.minimum ?? -(2 ** 31);
  let max = schema.maximum ?? 2 ** 31;
  if (schema.exclusiveMinimum === true) min += 1;
  else if (typeof schema.exclusiveMinimum === 'number') min = schema.exclusiveMinimum + 1;
  if (schema.exclusiveMaximum === true) max -= 1;
  else if (typeof schema.exclusiveMaximum === 'number') max = schema.exclusiveMaximum - 1;
  min = Math.max(min, Number.MIN_SAFE_INTEGER);
  max = Math.min(max, Number.MAX_SAFE_INTEGER);
  const small = fc.integer({
    min: Math.max(min, -(2 ** 31)),
    max: Math.min(max, min + 5000, 2 ** 31 - 1),
  });
  const edges = fc.constantFrom(min, max);
  if (max - min < 2 ** 32)
    return fc.oneof({ weight: 6, arbitrary: small }, { weight: 1, arbitrary: edges });
  // Wide ranges (amounts, pages): anywhere in them, not only near the minimum.
  const wide = fc.maxSafeNat().map((n) => min + (n % (max - min + 1)));
  return fc.oneof(
    { weight: 6, arbitrary: small },
    { weight: 1, arbitrary: edges },
    { weight: 1, arbitrary: wide },
  );
}

function stringOf(schema: JsonSchema, known: readonly string[]): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.min(schema.maxLength ?? 60, 200);
  const fits = (s: string) => s.length >= minLength && s.length <= (schema.maxLength ?? Infinity);
  let generated: fc.Arbitrary<string>;
  if (schema.format === 'uuid' || isUuidPattern(schema.pattern)) {
    generated = fc.uuid();
  } else if (schema.format === 'email' || schema.pattern?.includes('@')) {
    generated = fc.emailAddress().filter(fits);
  } else if (schema.format === 'date-time' || schema.format === 'date') {
    generated = fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
  } else if (schema.pattern) {
    generated = fc.stringMatching(new RegExp(schema.pattern)).filter(fits);
  } else {
    generated = fc.string({ unit: 'grapheme', minLength, maxLength });
  }
  const usable = known.filter(fits);
  return usable.length
    ? fc.oneof(
        { weight: 1, arbitrary: generated },
        { weight: 2, arbitrary: fc.constantFrom(...usable) },
      )
    : generated;
}

function objectOf(
  schema: JsonSchema,
  known: readonly string[],
): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of Object.entries(properties))
    model[name] = arbitraryOf(property, known);
  return fc.record(model, {
    requiredKeys: Object.keys(properties).filter((name) => required.has(name)),
  }) as fc.Arbitrary<Record<string, unknown>>;
}
