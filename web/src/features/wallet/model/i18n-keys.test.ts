import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { resources } from '../../../shared/i18n/resources.js';

const featureDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.test.ts') ? [file] : [];
  });
}

type Lang = keyof typeof resources;
type Namespace = keyof (typeof resources)['fr'];

function lookup(lang: Lang, key: string, defaultNs: string): unknown {
  const [ns, rest] = key.includes(':') ? key.split(':', 2) : [defaultNs, key];
  let value: unknown = resources[lang][ns as Namespace];
  for (const part of rest!.split('.')) {
    value =
      value && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
  }
  return value;
}

/**
 * Every `t('…')` of the wallet screens (the file's `useTranslation` namespace, `ns:key` otherwise):
 * literal keys must resolve in both languages; template keys (`supplies.modes.${m}`) must
 * name an existing group.
 */
function usedKeys(): { file: string; ns: string; key: string; group: boolean }[] {
  const found: { file: string; ns: string; key: string; group: boolean }[] = [];
  for (const file of sources(featureDir)) {
    const text = readFileSync(file, 'utf8');
    const ns = /useTranslation\(\s*'(\w+)'/.exec(text)?.[1] ?? 'wallet';
    for (const m of text.matchAll(/\bt\(\s*(['"])([\w:.-]+)\1/g)) {
      found.push({ file, ns, key: m[2]!, group: false });
    }
    for (const m of text.matchAll(/\bt\(\s*`([\w:.-]+)\.\$\{[^`]*`/g)) {
      found.push({ file, ns, key: m[1]!, group: true });
    }
    for (const m of text.matchAll(/\bt\(\s*`([\w:.-]+)`/g)) {
      found.push({ file, ns, key: m[1]!, group: false });
    }
  }
  return found;
}

describe('wallet i18n keys', () => {
  it('every key the wallet screens use exists in French and in English', () => {
    const keys = usedKeys();
    expect(keys.length).toBeGreaterThan(50);
    const missing: string[] = [];
    for (const { file, ns, key, group } of keys) {
      for (const lang of ['fr', 'en'] as const) {
        const value = lookup(lang, key, ns);
        const ok = group
          ? Boolean(value) && typeof value === 'object'
          : typeof value === 'string' || Array.isArray(value);
        if (!ok) missing.push(`${lang} ${key} (${path.relative(featureDir, file)})`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('the English wallet texts are translated (no French text left where English differs)', () => {
    const strings = (value: unknown, prefix = ''): [string, string][] =>
      value && typeof value === 'object'
        ? Object.entries(value).flatMap(([k, v]) => strings(v, prefix ? `${prefix}.${k}` : k))
        : [[prefix, String(value)]];
    const accented = /[àâçéèêëîïôûùüÿœ]/i;
    const french = strings(resources.en.wallet).filter(
      ([key, text]) =>
        accented.test(text) &&
        // Names of the spec that stay in French (the accepted bank's, for instance).
        !key.startsWith('supplies.errors'),
    );
    expect(french).toEqual([]);
  });
});
