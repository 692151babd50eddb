import type { ContractEvent } from './events.js';

/** Who issues a command: a signed-in user (role code ROLE_…) or the system (scheduled jobs). */
export interface ContractActor {
  userId: string;
  role: string;
}

export const SYSTEM_ACTOR: ContractActor = { userId: 'system', role: 'SYSTEM' };

export interface StreamWrite {
  streamId: string;
  events: ContractEvent[];
}

/** Events per stream (possibly none) and the command's answer. */
export interface Decision<R> {
  writes: StreamWrite[];
  result: R;
}

export function decision<R>(result: R, ...writes: StreamWrite[]): Decision<R> {
  return { writes: writes.filter((w) => w.events.length > 0), result };
}
