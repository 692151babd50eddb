import { requestFingerprint, type Idempotency } from '@filiere/event-store';

/**
 * A client's Idempotency-Key scoped by user and command (`<userId>:seasons.<command>:<key>`,
 * so keys never collide across users or contexts), with the fingerprint of the command's
 * validated input; none without a key.
 */
export const scopedKey = (
  userId: string,
  command: string,
  key: string | undefined,
  input: unknown,
): Idempotency | undefined =>
  key
    ? {
        key: `${userId}:seasons.${command}:${key}`,
        fingerprint: requestFingerprint(command, input),
      }
    : undefined;
