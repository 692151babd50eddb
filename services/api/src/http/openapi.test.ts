import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { lintFromString, loadConfig } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument, type OpenApiDocument } from '../openapi-document.js';
import { operationIdOf } from './openapi.js';

const REDOCLY_CONFIG = fileURLToPath(new URL('../../../../redocly.yaml', import.meta.url));

describe('the OpenAPI document', () => {
  let webDir: string;
  let doc: OpenApiDocument;
  beforeAll(async () => {
    // As production serves it: with the built web app's catch-all route beside the API.
    webDir = mkdtempSync(path.join(tmpdir(), 'filiere-web-'));
    writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Filière</title>');
    doc = await openApiDocument({ webDir });
  }, 120_000);
  afterAll(() => rmSync(webDir, { recursive: true, force: true }));

  it('passes Redocly’s recommended rules (redocly.yaml) with no error', async () => {
    const config = await loadConfig({ configPath: REDOCLY_CONFIG });
    const problems = await lintFromString({
      source: JSON.stringify(doc),
      absoluteRef: path.join(webDir, 'openapi.json'),
      config,
    });
    const found = problems.map(
      (p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer ?? ''}: ${p.message}`,
    );
    expect(found.filter((p) => p.startsWith('error'))).toEqual([]);
    // The one warning left: a liveness probe answers 200 or nothing, never a 4xx.
    expect(found).toEqual([
      'warn operation-4xx-response #/paths/~1api~1health/get/responses: Operation must have at least one `4XX` response.',
    ]);
  });

  it('documents the API only, not the web app’s pages', () => {
    expect(Object.keys(doc.paths).filter((p) => !p.startsWith('/api/'))).toEqual([]);
  });

  it('declares who may call each operation, from its guard', () => {
    const login = doc.paths['/api/auth/login']!.post!;
    expect(login.security).toEqual([]);
    const transfer = doc.paths['/api/wallet/make-transfer']!.post!;
    expect(transfer.security).toEqual([{ bearer: [] }]);
    expect(Object.keys(transfer.responses as object)).toEqual(
      expect.arrayContaining(['400', '401', '403']),
    );
  });

  it('says what each operation answers on success (the web’s types are read from it)', () => {
    // The sandbox widget's form answers a 303 back to the app: no body to describe (and
    // Redocly wants a 2xx on every operation, so the document keeps its default 200).
    const redirects = ['POST /api/sandbox/pay/{reference}'];
    const silent: string[] = [];
    for (const [url, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const responses = (operation as { responses?: Record<string, { content?: unknown }> })
          .responses;
        if (!responses) continue;
        // A 204 has no body; any other success names its content.
        const described = Object.entries(responses).some(
          ([code, r]) => code === '204' || (/^2\d\d$/.test(code) && r.content !== undefined),
        );
        const name = `${method.toUpperCase()} ${url}`;
        if (!described && !redirects.includes(name)) silent.push(name);
      }
    }
    expect(silent).toEqual([]);
  });

  it('names each operation after its method and URL', () => {
    expect(operationIdOf('GET', '/api/users/:id/audit')).toBe('getUsersByIdAudit');
    expect(operationIdOf('GET', '/api/wallet/:walletId/statement.xlsx')).toBe(
      'getWalletByWalletIdStatementXlsx',
    );
    expect(doc.paths['/api/wallet/make-debit/{id}']!.post!.operationId).toBe(
      'postWalletMakeDebitById',
    );
  });
});
