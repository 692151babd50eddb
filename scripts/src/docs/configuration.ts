import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONFIG_AREAS, configDefault, configDocs, type ConfigVariable } from '@filiere/platform';
import { format, resolveConfig } from 'prettier';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const CONFIGURATION_PAGE = path.join(ROOT, 'docs/configuration.md');

function shownDefault(name: ConfigVariable): string {
  const written = configDocs[name].default;
  if (written !== undefined) return written;
  const value = configDefault(name);
  return value === undefined ? 'none' : `\`${String(value)}\``;
}

/**
 * docs/configuration.md as platform/src/config.ts declares it: one section per area, one entry
 * per variable (name, default, meaning), formatted by the repository's Prettier settings so the
 * page passes `prettier --check`.
 */
export async function renderConfigurationPage(): Promise<string> {
  const names = Object.keys(configDocs) as ConfigVariable[];
  const lines = [
    '# Configuration',
    '',
    '<!-- Generated from platform/src/config.ts by `npm run docs:config`; edit that file, not this one. -->',
    '',
    'Every setting is an environment variable, parsed once with zod (`platform/src/config.ts`). A',
    'bad value stops start-up with one line naming the variable, e.g.',
    '`Invalid configuration: PORT must be a number (got "abc")`. With `NODE_ENV=production`',
    'start-up also refuses every default that only suits a demo (docs/operations.md).',
  ];
  for (const area of CONFIG_AREAS) {
    lines.push('', `## ${area}`, '');
    for (const name of names.filter((n) => configDocs[n].area === area)) {
      lines.push(`- **\`${name}\`** — default ${shownDefault(name)}. ${configDocs[name].meaning}`);
    }
  }
  const options = await resolveConfig(CONFIGURATION_PAGE);
  return format(`${lines.join('\n')}\n`, { ...options, filepath: CONFIGURATION_PAGE });
}

/** The committed page, or '' when it does not exist. */
export async function committedConfigurationPage(): Promise<string> {
  return readFile(CONFIGURATION_PAGE, 'utf8').catch(() => '');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await writeFile(CONFIGURATION_PAGE, await renderConfigurationPage());
  process.stdout.write(`Written to ${path.relative(process.cwd(), CONFIGURATION_PAGE)}\n`);
}
