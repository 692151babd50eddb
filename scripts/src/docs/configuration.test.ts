import { describe, expect, it } from 'vitest';
import { configSchema } from '@filiere/platform';
import { committedConfigurationPage, renderConfigurationPage } from './configuration.js';

describe('docs/configuration.md', () => {
  it('is what platform/src/config.ts declares (regenerate it with npm run docs:config)', async () => {
    const committed = await committedConfigurationPage();
    expect(committed, 'docs/configuration.md is stale: run npm run docs:config').toBe(
      await renderConfigurationPage(),
    );
  });

  it("shows the schema's defaults", async () => {
    const page = await committedConfigurationPage();
    const defaults = configSchema.parse({});
    for (const name of ['PORT', 'COMMAND_BATCH_MAX', 'MAX_BALANCE', 'GEOCODER_URL'] as const) {
      expect(page).toContain(`**\`${name}\`** — default \`${String(defaults[name])}\`.`);
    }
  });
});
