import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '@filiere/platform/testing';
import type { Database } from '../database.js';
import { buildTestApp } from '../test-app.js';

/** A build as Vite writes it: hashed files under assets/, each with its .br and .gz copies. */
function writeBuild(dir: string): { script: string; index: string } {
  const script = `export const rows = [${Array.from({ length: 400 }, (_, i) => `'row ${i}'`).join(',')}];\n`;
  const index = `<!doctype html><html lang="fr"><head><title>Filière</title></head><body><div id="root"></div>${'<!-- shell -->'.repeat(100)}</body></html>`;
  mkdirSync(path.join(dir, 'assets'));
  const write = (file: string, text: string) => {
    writeFileSync(path.join(dir, file), text);
    writeFileSync(path.join(dir, `${file}.br`), brotliCompressSync(text));
    writeFileSync(path.join(dir, `${file}.gz`), gzipSync(text));
  };
  write('assets/index-Ab12Cd34.js', script);
  write('index.html', index);
  writeFileSync(path.join(dir, 'sw.js'), 'self.addEventListener("fetch", () => {});\n');
  return { script, index };
}

/**
 * The web app delivered as a mobile product. The build's files are sent compressed as
 * they were written (brotli when accepted, else gzip), the hashed ones cached a year, the ones
 * that keep their name across builds revalidated; the API's answers compressed too, but not
 * what is compressed already.
 */
describe('web app delivery', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  let dir: string;
  let build: ReturnType<typeof writeBuild>;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'filiere-web-static-'));
    build = writeBuild(dir);
    app = await buildTestApp(testDb.db, { webDir: dir });
    // An answer of a type that is compressed already (an export's XLSX).
    app.get('/api/test-download.xlsx', (_request, reply) =>
      reply
        .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .send(Buffer.alloc(64 * 1024, 7)),
    );
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (url: string, encoding?: string) =>
    app.inject({
      method: 'GET',
      url,
      headers: encoding ? { 'accept-encoding': encoding } : {},
    });

  it('sends a hashed file as its brotli copy when accepted, cached a year as immutable', async () => {
    const response = await get('/assets/index-Ab12Cd34.js', 'gzip, deflate, br');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['vary']).toMatch(/accept-encoding/i);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(build.script);
    expect(response.rawPayload.length).toBeLessThan(build.script.length / 3);
  });

  it('sends the gzip copy to a client without brotli, the file itself to one without either', async () => {
    const gzip = await get('/assets/index-Ab12Cd34.js', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(build.script);
    const plain = await get('/assets/index-Ab12Cd34.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(build.script);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('revalidates index.html, at / and at any screen address, and the service worker', async () => {
    for (const url of ['/', '/index.html', '/wallet', '/contrats/lots/12']) {
      const response = await get(url, 'br');
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['cache-control'], url).toBe('no-cache');
      expect(response.headers['content-encoding'], url).toBe('br');
      expect(brotliDecompressSync(response.rawPayload).toString(), url).toBe(build.index);
    }
    const worker = await get('/sw.js');
    expect(worker.statusCode).toBe(200);
    expect(worker.headers['cache-control']).toBe('no-cache');
  });

  it('answers a file of another build with 404, not index.html', async () => {
    const response = await get('/assets/index-Zz99Yy88.js', 'br');
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).not.toMatch(/html/);
  });

  it("compresses the API's answers when accepted, not those compressed already", async () => {
    const json = await get('/api/docs/json', 'gzip, deflate, br');
    expect(json.statusCode).toBe(200);
    expect(json.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(json.rawPayload).toString()).paths).toHaveProperty(
      '/api/health',
    );
    const plain = await get('/api/docs/json');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json().paths).toHaveProperty('/api/health');

    const xlsx = await get('/api/test-download.xlsx', 'gzip, deflate, br');
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-encoding']).toBeUndefined();
    expect(xlsx.rawPayload.length).toBe(64 * 1024);
  });
});
