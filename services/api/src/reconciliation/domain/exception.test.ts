import { describe, expect, it } from 'vitest';
import { ROLE } from '../../kernel/roles.js';
import type { ExceptionCandidate } from './close.js';
import type { ReconciliationEvent } from './events.js';
import {
  approveResolution,
  closeException,
  evolveException,
  initialExceptionState,
  linkException,
  openException,
  proposeResolution,
  rejectResolution,
  type ExceptionState,
} from './exception.js';

const candidate: ExceptionCandidate = {
  exceptionId: 'e1',
  kind: 'MISSING_IN_LEDGER',
  source: 'FEDAPAY',
  day: '2026-12-01',
  direction: 'IN',
  amount: 5_000,
  difference: 0,
  lineKey: 'FEDAPAY:tx-1',
  movementKey: null,
  reference: 'APP-1',
  account: null,
};
const alice = { userId: 'alice', role: ROLE.ADMIN };
const bob = { userId: 'bob', role: ROLE.SUPER_ADMIN };
const auditor = { userId: 'carol', role: ROLE.ACCOUNTING };

const fold = (state: ExceptionState, events: ReconciliationEvent[]) =>
  events.reduce(evolveException, state);
const open = () => fold(initialExceptionState(), openException(initialExceptionState(), candidate));

describe('exception', () => {
  it('opens once', () => {
    expect(openException(open(), candidate)).toEqual([]);
  });

  it('needs a second finance user to approve a ledger resolution', () => {
    const proposed = fold(
      open(),
      proposeResolution(open(), { action: 'CREDIT_SUPPLY', target: 'APP-1', note: '' }, alice),
    );
    expect(() => approveResolution(proposed, alice)).toThrow(
      'Une autre personne doit approuver votre proposition',
    );
    const { events, proposal } = approveResolution(proposed, bob);
    expect(proposal).toMatchObject({ action: 'CREDIT_SUPPLY', target: 'APP-1' });
    expect(fold(proposed, events).status).toBe('RESOLVED');
  });

  it('lets the auditor resolve nothing', () => {
    expect(() => closeException(open(), { reason: 'vu' }, auditor)).toThrow(
      'Seuls les administrateurs traitent les écarts de rapprochement',
    );
    expect(() =>
      proposeResolution(open(), { action: 'CREDIT_SUPPLY', target: 'APP-1', note: '' }, auditor),
    ).toThrow('Seuls les administrateurs');
  });

  it('refuses a ledger command that does not fit the exception', () => {
    expect(() =>
      proposeResolution(open(), { action: 'FAIL_PAYOUT', target: 'W-1', note: '' }, alice),
    ).toThrow('Cette opération ne résout pas ce type d’écart');
  });

  it('goes back to open, with no proposal, when the second eye rejects', () => {
    const proposed = fold(
      open(),
      proposeResolution(open(), { action: 'CREDIT_SUPPLY', target: 'APP-1', note: '' }, alice),
    );
    const rejected = fold(proposed, rejectResolution(proposed, { note: 'non' }, bob));
    expect(rejected).toMatchObject({ status: 'OPEN', proposal: null });
  });

  it('links or closes an open exception only once', () => {
    const linked = fold(
      open(),
      linkException(open(), { counterpartKey: 'supply:APP-1', note: '' }, alice, {
        counterpartFree: true,
      }),
    );
    expect(linked.status).toBe('LINKED');
    expect(() => closeException(linked, { reason: 'x' }, alice)).toThrow(
      'Cet écart est déjà traité',
    );
    expect(() => closeException(open(), { reason: ' ' }, alice)).toThrow(
      'Le motif est obligatoire',
    );
  });
});
