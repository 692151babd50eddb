import { pbkdf2Sync, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { matchCode, normalizeCode, type OfflineRequest } from './code-check.js';

/** A kept request whose check was made as the server makes it (node:crypto's PBKDF2). */
function kept(id: number, code: string, iterations = 1_000): OfflineRequest {
  const salt = randomBytes(16);
  return {
    id,
    reference: `DEM-${id}`,
    grower: { id: 'g', firstname: 'Awa', lastname: 'Dossou', phone: null },
    fertilizer: { id: 1, label: 'NPK', type: { id: 1, label: 'Engrais' } },
    aggregator: { id: 'a', firstname: 'A', lastname: 'B' },
    quantity: 10,
    amount: 3_500,
    status: 'CREATED',
    receivedAt: null,
    createdAt: '2026-12-01T00:00:00.000Z',
    codeCheck: {
      algorithm: 'PBKDF2-SHA256',
      iterations,
      salt: salt.toString('base64'),
      hash: pbkdf2Sync(code, salt, iterations, 32, 'sha256').toString('base64'),
    },
  };
}

describe('the local check of a grower’s code', () => {
  const requests = [kept(1, 'AGW_123456'), kept(2, 'AGW_654321'), kept(3, 'AGW_000777')];

  it('finds the request of the code typed on the keypad or in full, any case', async () => {
    expect((await matchCode('654321', requests))?.id).toBe(2);
    expect((await matchCode(' agw_000777 ', requests))?.id).toBe(3);
    expect((await matchCode('AGW_123456', requests))?.id).toBe(1);
  });

  it('a wrong or malformed code matches nothing', async () => {
    for (const typed of ['123457', 'AGW_999999', '', '12345', 'AGW_12345a', '1234567']) {
      expect(await matchCode(typed, requests), typed).toBeNull();
    }
    expect(await matchCode('123456', [])).toBeNull();
  });

  it('uses the iterations the server gave (the same code with other iterations does not match)', async () => {
    const strong = kept(9, 'AGW_111111', 100_000);
    expect((await matchCode('111111', [strong]))?.id).toBe(9);
    const forged = { ...strong, codeCheck: { ...strong.codeCheck, iterations: 1_000 } };
    expect(await matchCode('111111', [forged])).toBeNull();
  });

  it('keeps no code in the kept request', () => {
    expect(JSON.stringify(requests)).not.toMatch(/AGW_\d{6}/);
    expect(normalizeCode('012345')).toBe('AGW_012345');
  });
});
