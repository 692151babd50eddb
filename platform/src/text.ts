import { z } from 'zod';

/**
 * Text PostgreSQL cannot store. In a UTF-8 database a `text` value holds any Unicode
 * character but NUL (U+0000), and `jsonb` refuses the escape `\u0000` and any UTF-16
 * surrogate that is not half of a pair. A JavaScript string can hold both (a JSON body may
 * send `"\u0000"` or `"\uD800"`): such text is refused at the edge with a 400, as it would
 * otherwise fail the statement that stores it.
 */
// eslint-disable-next-line no-control-regex -- NUL is exactly what it looks for
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const UNSTORABLE_ALL = new RegExp(UNSTORABLE.source, 'g');

/** The field message of a text PostgreSQL cannot store. */
export const UNSTORABLE_TEXT_MESSAGE =
  'Ce champ contient un caractère non autorisé (caractère nul ou caractère Unicode incomplet)';

/** Whether PostgreSQL can store the string (no NUL, no lone surrogate). */
export function isStorableText(value: string): boolean {
  return !UNSTORABLE.test(value);
}

/**
 * `z.string()` that also refuses text PostgreSQL cannot store, with a French message: use it
 * for every text a request carries (chain `.trim()`, `.max()`, … as on `z.string()`).
 */
export function storableString(params?: Parameters<typeof z.string>[0]) {
  return z.string(params).refine(isStorableText, { message: UNSTORABLE_TEXT_MESSAGE, abort: true });
}

/** The paths of the strings in `value` (object keys included) that PostgreSQL cannot store. */
export function unstorableTextPaths(value: unknown, limit = 20): (string | number)[][] {
  const found: (string | number)[][] = [];
  // Iterative (a request body may nest deeper than the call stack allows); a node's path is
  // only built when it is reported.
  const stack: Node[] = [{ value, parent: undefined, key: undefined }];
  while (stack.length > 0 && found.length < limit) {
    const node = stack.pop()!;
    const current = node.value;
    if (typeof current === 'string') {
      if (!isStorableText(current)) found.push(pathOf(node));
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) {
        const item: unknown = current[i];
        if (typeof item === 'string' || (item !== null && typeof item === 'object')) {
          stack.push({ value: item, parent: node, key: i });
        }
      }
    } else if (isPlainObject(current)) {
      const keys = Object.keys(current);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        const child: Node = {
          value: (current as Record<string, unknown>)[key],
          parent: node,
          key,
        };
        if (!isStorableText(key)) found.push(pathOf(child));
        else stack.push(child);
      }
    }
  }
  return found.slice(0, limit);
}

interface Node {
  value: unknown;
  parent: Node | undefined;
  key: string | number | undefined;
}

function pathOf(node: Node): (string | number)[] {
  const path: (string | number)[] = [];
  for (let n: Node | undefined = node; n?.parent; n = n.parent) path.push(n.key!);
  return path.reverse();
}

function isPlainObject(value: unknown): value is object {
  if (value === null || typeof value !== 'object') return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Refuses any input holding a string PostgreSQL cannot store, one issue per path, before
 * the schema it is piped into runs: `storableInput.pipe(schema)`.
 */
export const storableInput = z.unknown().superRefine((value, ctx) => {
  for (const path of unstorableTextPaths(value)) {
    // A key that is itself unstorable is named with U+FFFD in its place (answers stay clean).
    const named = path.map((k) =>
      typeof k === 'string' ? k.replace(UNSTORABLE_ALL, '\uFFFD') : k,
    );
    ctx.addIssue({ code: 'custom', path: named, message: UNSTORABLE_TEXT_MESSAGE });
  }
});
