import { describe, expect, it } from 'vitest';
import { contractEvent } from '../domain/events.js';
import { evolveContract, initialContractState } from '../domain/contract-stream.js';
import { AcceptanceCodes } from './acceptance-code.js';

const SECRET = 'a-secret-of-at-least-thirty-two-characters-0123';
const PHONE = '+2290197000001';

describe('acceptance codes', () => {
  const codes = AcceptanceCodes.fromSecret(SECRET);

  it('draws six digits and keeps only their keyed hash, which the code entered again finds', async () => {
    const { code, issue } = codes.issue(PHONE);
    expect(code).toMatch(/^\d{6}$/);
    expect(issue).toMatchObject({ phone: PHONE, scheme: 'HMAC-SHA256' });
    expect(JSON.stringify(issue)).not.toContain(code);
    expect(await codes.hash(code, issue.salt, issue.scheme)).toBe(issue.codeHash);
    const other = code === '000000' ? '000001' : '000000';
    expect(await codes.hash(other, issue.salt, issue.scheme)).not.toBe(issue.codeHash);
  });

  it('gives the same code two different hashes under two salts, and under another key', async () => {
    const first = codes.issue(PHONE);
    const second = codes.issue(PHONE);
    expect(first.issue.salt).not.toBe(second.issue.salt);
    expect(await codes.hash(first.code, second.issue.salt)).not.toBe(
      await codes.hash(first.code, first.issue.salt),
    );
    // Whoever reads the log without JWT_SECRET cannot try the 10⁶ codes against it.
    const elsewhere = AcceptanceCodes.fromSecret(`${SECRET}-rotated`);
    expect(await elsewhere.hash(first.code, first.issue.salt)).not.toBe(first.issue.codeHash);
  });

  it('checks a code whose event names no scheme with scrypt, as it was issued', async () => {
    const salt = '0f1e2d3c4b5a69788796a5b4c3d2e1f0';
    const scryptHash = '2388006c139e1753d504943f9dd296ed7093840d7a057b56a912d09de38948f6';
    const state = evolveContract(
      initialContractState(),
      contractEvent('AcceptanceCodeIssued', {
        contractId: 'c-1',
        codeId: 'code-1',
        phone: PHONE,
        salt,
        codeHash: scryptHash,
        issuedBy: 'u-1',
        issuedAt: '2026-11-25T10:00:00.000Z',
      }),
    );
    expect(state.acceptanceCode?.scheme).toBe('SCRYPT');
    expect(await codes.hash('123456', salt, state.acceptanceCode!.scheme)).toBe(scryptHash);
    expect(await codes.hash('123457', salt, state.acceptanceCode!.scheme)).not.toBe(scryptHash);
  });
});
