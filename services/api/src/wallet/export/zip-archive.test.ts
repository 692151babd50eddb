import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { ZipArchive } from './zip-archive.js';

const collect = () => {
  const chunks: Buffer[] = [];
  const out = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      callback();
    },
  });
  return { out, bytes: () => Buffer.concat(chunks) };
};

describe('ZipArchive (yazl under the export)', () => {
  it('writes whole and streamed entries that unzip reads back byte for byte', async () => {
    const { out, bytes } = collect();
    const zip = new ZipArchive(out, 4);
    zip.add('a.txt', 'Café 5 000 F');
    const big = zip.entry('dir/big.xml');
    let expected = '';
    for (let i = 0; i < 2_000; i++) {
      const line = `<row r="${i}">${'é'.repeat(i % 50)}</row>\n`;
      expected += line;
      await big.write(i % 2 ? line : Buffer.from(line));
    }
    await big.end();
    await zip.finish();
    if (!existsSync('/usr/bin/unzip')) return;
    const dir = await mkdtemp(path.join(os.tmpdir(), 'filiere-zip-'));
    try {
      const file = path.join(dir, 'a.zip');
      await writeFile(file, bytes());
      expect(execFileSync('/usr/bin/unzip', ['-tq', file]).toString()).toMatch(/No errors/);
      execFileSync('/usr/bin/unzip', ['-q', file, '-d', dir]);
      expect(await readFile(path.join(dir, 'a.txt'), 'utf8')).toBe('Café 5 000 F');
      expect(await readFile(path.join(dir, 'dir/big.xml'), 'utf8')).toBe(expected);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('rejects a write waiting on backpressure, and every later call, when the output fails', async () => {
    const out = new PassThrough({ highWaterMark: 1024 }); // nobody reads it: it fills up
    const zip = new ZipArchive(out, 0);
    const entry = zip.entry('x.bin');
    const chunk = Buffer.alloc(64 * 1024, 7);
    let written = 0;
    const writing = (async () => {
      for (; written < 100; written++) await entry.write(chunk);
    })();
    writing.catch(() => undefined);
    await vi.waitFor(() => expect(out.readableLength).toBeGreaterThanOrEqual(1024));
    // 6.4 MB offered, the output full and unread: the writer is held back, memory bounded.
    expect(written).toBeLessThan(10);
    out.destroy(new Error('disk full'));
    await expect(writing).rejects.toThrow('disk full');
    await expect(entry.write('more')).rejects.toThrow('disk full');
    await expect(zip.finish()).rejects.toThrow('disk full');
  });

  it('rejects finish when the output closes before the archive ends', async () => {
    const out = new PassThrough();
    out.resume();
    const zip = new ZipArchive(out);
    zip.add('a.txt', 'a');
    out.destroy();
    await expect(zip.finish()).rejects.toThrow('output closed before the archive ended');
  });
});
