import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import fr from '../i18n/locales/fr/validation.json' with { type: 'json' };
import { msg } from './rules.js';

const key = (schema: z.ZodType, input: unknown) => {
  const result = schema.safeParse(input);
  if (result.success) throw new Error('parsed');
  return result.error.issues[0]!.message;
};
const isValidationKey = (message: string) =>
  message.startsWith('validation:') && message.slice('validation:'.length) in fr;

describe('zod messages in the web are i18n keys, never zod’s English', () => {
  it('a number where a string is expected (the role select’s old bug): the invalid key', () => {
    expect(key(z.object({ roleId: z.string() }), { roleId: 5 })).toBe(msg.invalid);
  });

  it('a missing value: required; other issues without a message of their own: invalid', () => {
    expect(key(z.string(), undefined)).toBe(msg.required);
    expect(key(z.number().int(), 1.5)).toBe(msg.invalid);
    expect(key(z.enum(['A', 'B']), 'C')).toBe(msg.invalid);
    expect(key(z.email(), 'x')).toBe(msg.invalid);
  });

  it('a schema’s own message still wins', () => {
    expect(key(z.string().min(1, msg.required), '')).toBe(msg.required);
  });

  it('every key given is a French text of the validation namespace', () => {
    for (const message of [msg.required, msg.invalid]) {
      expect(isValidationKey(message), message).toBe(true);
    }
  });
});
