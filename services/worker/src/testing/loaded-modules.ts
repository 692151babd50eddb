import { createRequire, register } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MessageChannel } from 'node:worker_threads';

/**
 * Test support: imports the module named on the command line and prints, as JSON, what
 * loading it brought in: the npm packages (ESM imports seen by a resolve hook, CommonJS
 * modules in require.cache) and the repository's own source files (relative paths).
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const seen = new Set<string>();
const { port1, port2 } = new MessageChannel();
port1.on('message', (url: string) => seen.add(url));
const hooks = `
let port;
export function initialize(data) { port = data.port; }
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  port.postMessage(result.url);
  return result;
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`, {
  data: { port: port2 },
  transferList: [port2],
});

await import(pathToFileURL(path.resolve(root, process.argv[2]!)).href);
await new Promise((r) => setTimeout(r, 100)); // the hook's last messages
port1.close();

const files = [...seen]
  .filter((url) => url.startsWith('file:'))
  .map((url) => fileURLToPath(url))
  .concat(Object.keys(createRequire(import.meta.url).cache));
const packages = new Set<string>();
const sources = new Set<string>();
for (const file of files) {
  const match = file.match(/.*node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (match) packages.add(match[1]!);
  else if (file.startsWith(root)) sources.add(path.relative(root, file));
}
process.stdout.write(
  `${JSON.stringify({ packages: [...packages].sort(), sources: [...sources].sort() })}\n`,
);
process.exit(0);
