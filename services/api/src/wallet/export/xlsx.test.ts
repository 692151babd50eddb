import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import { addTransactionRows, readSheet } from './testing/export-fixtures.js';
import { escapeXml } from './xlsx-parts.js';
import { writeTransactionsXlsx } from './xlsx.js';
import type { Database } from '../../database.js';

const t = useTestDatabase<Database>();
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'filiere-xlsx-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the hand-written .xlsx', () => {
  it('keeps hostile text as text: markup, formulas, control characters, long reasons', async () => {
    await addTransactionRows(t.db, 'w-hostile', 5, { firstId: 3_000_000_000 });
    const reasons = [
      '<script>alert("x")</script> & </t></is></c>',
      '=HYPERLINK("http://evil","clic")',
      `bell\u0007 and nul\u0000 gone`,
      `lone \uD800 surrogate, pair 😀 kept`,
      `  spaces kept  ${'x'.repeat(40_000)}`,
    ];
    for (const [i, reason] of reasons.entries()) {
      await sql`update wallet_transactions set reason = ${reason.replaceAll('\u0000', '')}
        where id = ${3_000_000_001 + i}`.execute(t.db);
    }
    const file = path.join(dir, 'hostile.xlsx');
    const progress: number[] = [];
    const rows = await writeTransactionsXlsx(
      t.db,
      'w-hostile',
      { filename: file },
      (n) => void progress.push(n),
      { pageSize: 2 },
    );
    expect(rows).toBe(5);
    expect(progress).toEqual([2, 4, 5]);
    const sheet = await readSheet(file);
    expect(sheet).toHaveLength(6);
    const read = sheet.slice(1).map((r) => r[5]);
    expect(read[0]).toBe(reasons[0]);
    expect(read[1]).toBe(reasons[1]); // a string, not a formula
    expect(read[2]).toBe('bell and nul gone');
    // PostgreSQL stored the lone surrogate as U+FFFD (UTF-8 cannot hold it).
    expect(read[3]).toBe('lone \uFFFD surrogate, pair 😀 kept');
    expect(String(read[4])).toHaveLength(32_767);
    expect(String(read[4]).startsWith('  spaces kept  x')).toBe(true);
    if (existsSync('/usr/bin/unzip')) {
      // The archive itself passes unzip's CRC checks.
      expect(execFileSync('/usr/bin/unzip', ['-tq', file]).toString()).toMatch(/No errors/);
    }
  });

  it('stops, and lets its cursor and connection go, when the reader goes away mid-file', async () => {
    await addTransactionRows(t.db, 'w-gone', 20_000, { firstId: 4_000_000_000 });
    const out = new PassThrough();
    let seen = 0;
    out.on('data', (chunk: Buffer) => {
      seen += chunk.length;
      if (seen < 50_000) return;
      out.pause(); // a client that stops reading (backpressure), then hangs up
      setTimeout(() => out.destroy(), 100);
    });
    await expect(writeTransactionsXlsx(t.db, 'w-gone', { stream: out })).rejects.toThrow();
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
      where datname = current_database() and state like 'idle in transaction%'`.execute(t.db);
    expect(rows[0]!.n).toBe(0);
  });

  it('escapes only what XML needs and drops what XML forbids', () => {
    expect(escapeXml('Café Ñ 5 000 F')).toBe('Café Ñ 5 000 F');
    expect(escapeXml('a<b>&"c"')).toBe('a&lt;b&gt;&amp;&quot;c&quot;');
    expect(escapeXml('a\uD800b\u0001c 😀')).toBe('abc 😀');
  });
});
