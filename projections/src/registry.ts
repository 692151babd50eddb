import type { Projector } from './projector.js';
import { walletProjectors } from './wallet/index.js';

/**
 * The product's projectors, run by the API (in-process mode), the worker and
 * the ledger:rebuild / ledger:check commands. Each feature adds its own here.
 */
export const projectors: Projector[] = [...walletProjectors];
