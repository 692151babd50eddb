import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API_TYPES_COMMAND, API_TYPES_FILE, apiTypesSource } from './api-types.js';

describe('the web app’s API types', () => {
  it('are the ones the OpenAPI document gives now', async () => {
    const committed = readFileSync(API_TYPES_FILE, 'utf8');
    const current = await apiTypesSource();
    // Not toBe: a diff of 18,000 lines says less than the command to run.
    expect(
      committed === current,
      `${API_TYPES_FILE} is stale: run \`${API_TYPES_COMMAND}\` and commit it`,
    ).toBe(true);
  }, 120_000);
});
