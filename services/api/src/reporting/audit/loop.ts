import { InProcessLoop, type Logger } from '@filiere/platform';
import type { IntegrityVerifier } from './verifier.js';

/** How often the verification runs (it runs again at once while new events keep coming). */
export const VERIFY_POLL_MS = 10_000;

export function integrityLoop(verifier: IntegrityVerifier, logger: Logger): InProcessLoop {
  return new InProcessLoop(verifier, logger, {
    name: 'ledger integrity verification',
    pollMs: VERIFY_POLL_MS,
  });
}
