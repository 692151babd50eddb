// @ts-check
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/**
 * `node scripts/run.mjs <entry.ts> [args]`: runs one of the server's TypeScript entries
 * (`npm start`, the API, the worker, the operator's commands) as plain JavaScript, bundled by esbuild, instead of
 * through tsx's loader. Under tsx every module of the graph (the API's ~1,000 files and every
 * package they import) goes through loader hooks on a thread of their own, and each of the
 * API's worker threads loads its graph the same way again: 3 CPU-s a load, 5 on a cold cache,
 * against 1.7 for the bundle. The start that serves the API, its background thread and its
 * audit thread loads three graphs.
 *
 * The bundle holds the repository's own code (the @filiere/* workspaces); npm packages stay
 * imports, loaded by Node as usual. In the bundle each source file keeps its own
 * `import.meta.url` (its path in the repository), so the files it reads beside itself (data,
 * fonts, the web build) and the packages it resolves are where they are when it runs from
 * source. The server's worker threads are entries of the same build: `spawnThread`
 * (platform/src/threads.ts) starts a thread's built module when the bundle has it.
 *
 * A build is kept in node_modules/.cache/filiere-server/<key>, the key a hash of the
 * sources' paths, sizes and modification times (and of this file): a start with unchanged
 * sources reuses it, a changed file makes a new one. Builds are written to a temporary
 * folder and renamed into place, so processes starting side by side never read half a build.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The entries started as processes: the product's and the operator's commands (`npm run
 * migrate`, `admin:create`, `ledger:*`), which load much of the API's graph for a few
 * seconds' work.
 */
const PROCESSES = [
  'scripts/src/start.ts',
  'services/api/src/main.ts',
  'services/worker/src/main.ts',
  'scripts/src/migrate.ts',
  'scripts/src/admin-create.ts',
  'scripts/src/ledger/verify.ts',
  'scripts/src/ledger/rebuild.ts',
  'scripts/src/ledger/check.ts',
  'scripts/src/ledger/balance.ts',
];
/** What a build holds: the process entries, and the threads the server starts. */
const ENTRIES = [
  ...PROCESSES,
  'services/api/src/realtime/background-thread.ts',
  'services/api/src/reporting/audit/thread.ts',
];

/** The folders the build reads (the workspaces' sources, the web app's left out). */
const SOURCE_DIRS = [
  'platform/src',
  'event-store/src',
  'projections/src',
  'services/api/src',
  'services/worker/src',
  'scripts/src',
];

const CACHE = path.join(root, 'node_modules/.cache/filiere-server');
/** Builds older than this are removed when a new one is made. */
const KEEP_MS = 7 * 24 * 3600 * 1000;

/** A hash of what a build is made from: every source file's path, size and mtime. */
function sourcesKey() {
  const hash = createHash('sha256');
  hash.update(readFileSync(fileURLToPath(import.meta.url)));
  for (const file of ['package-lock.json', 'tsconfig.base.json']) {
    const stat = statSync(path.join(root, file));
    hash.update(`${file}\0${stat.size}\0${stat.mtimeMs}\n`);
  }
  for (const dir of SOURCE_DIRS) {
    const files = readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' }).sort();
    for (const file of files) {
      const stat = statSync(path.join(root, dir, file));
      if (stat.isFile()) hash.update(`${dir}/${file}\0${stat.size}\0${stat.mtimeMs}\n`);
    }
  }
  return hash.digest('hex').slice(0, 16);
}

/** Where a source file's module is in a build made in `outdir`. */
export function builtModule(outdir, sourceFile) {
  return path.join(outdir, path.relative(root, sourceFile).replace(/\.ts$/, '.js'));
}

/**
 * esbuild plugin: the repository's own files are bundled, npm packages stay imports, and each
 * source file's `import.meta.url` is its own file URL.
 */
const ownCodeOnly = {
  name: 'filiere-own-code',
  setup(/** @type {import('esbuild').PluginBuild} */ b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@filiere/')) return undefined;
      // The bundle sits in the root's node_modules and imports packages from there: a package
      // a workspace holds a copy of its own would be a different copy at run time.
      const name = args.path
        .split('/')
        .slice(0, args.path.startsWith('@') ? 2 : 1)
        .join('/');
      for (let dir = path.dirname(args.importer); dir.startsWith(`${root}/`);) {
        if (existsSync(path.join(dir, 'node_modules', name))) {
          return {
            errors: [{ text: `${name}: ${path.relative(root, dir)} has its own copy` }],
          };
        }
        dir = path.dirname(dir);
      }
      return { path: args.path, external: true };
    });
    b.onLoad({ filter: /\.ts$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes('import.meta.')) return undefined;
      const url = pathToFileURL(args.path).href;
      return {
        loader: 'ts',
        contents: source
          .replaceAll('import.meta.url', JSON.stringify(url))
          .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path)))
          .replaceAll('import.meta.filename', JSON.stringify(args.path)),
      };
    });
  },
};

/** The folder of a build of the current sources: reused, or made now. */
export async function serverBuild() {
  const outdir = path.join(CACHE, sourcesKey());
  const complete = path.join(outdir, '.complete');
  if (existsSync(complete)) return outdir;
  mkdirSync(CACHE, { recursive: true });
  // One build at a time for a given key (the bank test starts four processes at once): the
  // others wait for it. A lock older than a minute is a killed build's, and is taken over.
  const lock = `${outdir}.lock`;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (existsSync(complete)) return outdir;
      if (Date.now() - statSync(lock, { throwIfNoEntry: false })?.mtimeMs > 60_000) {
        rmSync(lock, { recursive: true, force: true });
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    if (existsSync(complete)) return outdir;
    return await buildInto(outdir);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Builds the entries into `outdir` (through a temporary folder renamed into place). */
async function buildInto(outdir) {
  const temporary = `${outdir}.${process.pid}.tmp`;
  await build({
    absWorkingDir: root,
    entryPoints: ENTRIES.map((entry) => path.join(root, entry)),
    outbase: root,
    outdir: temporary,
    entryNames: '[dir]/[name]',
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
    define: {
      __FILIERE_SERVER_BUILD__: JSON.stringify({ root, outdir }),
    },
    plugins: [ownCodeOnly],
  }).catch((error) => {
    rmSync(temporary, { recursive: true, force: true });
    throw error;
  });
  writeFileSync(path.join(temporary, '.complete'), '');
  try {
    renameSync(temporary, outdir);
  } catch {
    // Another start made the same build meanwhile: theirs is used, this one removed.
    rmSync(temporary, { recursive: true, force: true });
  }
  for (const old of readdirSync(CACHE)) {
    const dir = path.join(CACHE, old);
    if (!dir.startsWith(outdir) && Date.now() - statSync(dir).mtimeMs > KEEP_MS) {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return outdir;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const entry = process.argv[2];
  if (!entry || !PROCESSES.includes(path.relative(root, path.resolve(entry)))) {
    process.stderr.write(
      `usage: node scripts/run.mjs <entry>, the entry one of ${PROCESSES.join(', ')}\n`,
    );
    process.exit(2);
  }
  const source = path.resolve(entry);
  const outdir = await serverBuild();
  // Errors' stacks name the source files and lines, not the bundle's.
  process.setSourceMapsEnabled(true);
  // The entry sees the command line it would see run from source: argv[1] is its own file.
  process.argv.splice(1, 2, source);
  await import(pathToFileURL(builtModule(outdir, source)).href);
}
