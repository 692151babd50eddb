import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const ROOT = path.dirname(fileURLToPath(import.meta.url));
const readJson = (file) => JSON.parse(fs.readFileSync(path.join(ROOT, file), 'utf8'));

/*
 * Boundaries (docs/architecture.md, "Dependencies point down"), enforced with ESLint's own
 * no-restricted-imports (it knows type-only imports), each file getting the patterns of the
 * narrowest zone it is in, generated here from the tree itself rather than a boundaries
 * plugin: the package graph is read from each workspace's package.json (an @filiere package
 * a workspace does not declare is refused), and the contexts are the folders of
 * services/api/src that are not API plumbing. Adding a context or a dependency needs no
 * edit here. Dynamic `import()` is not checked: it is how a module lazily loads its routes.
 *
 * No cycle between contexts: the graph of which context imports which is read from the
 * sources when the config loads (static imports and re-exports, type-only ones included,
 * tests left out as everywhere here), and an import that closes a cycle is refused at both
 * ends, with the cycle in the message. No-cycle plugins (import-x's `no-cycle`,
 * dependency-cruiser) check files, not contexts: they would refuse the cycles inside a
 * context that its areas may have, miss a cycle between contexts that passes through
 * different files of each, and resolve the whole module graph on every lint.
 */
const WORKSPACES = readJson('package.json').workspaces;
const PACKAGES = Object.fromEntries(WORKSPACES.map((ws) => [ws, readJson(`${ws}/package.json`)]));
const API_SRC = 'services/api/src';
/** Folders of the API below or above the contexts; every other folder is a bounded context. */
const PLUMBING = ['kernel', 'http', 'realtime', 'security'];
const CONTEXTS = fs
  .readdirSync(path.join(ROOT, API_SRC), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !PLUMBING.includes(entry.name))
  .map((entry) => entry.name);
/** Tests and their helpers may reach further (seed another context, build the app). */
const TESTS = ['**/*.test.ts', '**/test-*.ts', '**/testing/**'];
const MAX_DEPTH = 6;
const isTest = (file) => /\.test\.ts$|(^|\/)test-[^/]*\.ts$|(^|\/)testing\//.test(file);

/** The static imports and re-exports of a source (`import type` included, `import()` not). */
const STATIC_IMPORT = /^\s*(?:import|export)\b[^;'"`]*?\bfrom\s+'([^']+)'|^\s*import\s+'([^']+)'/gm;

/** context → the contexts its files (tests left out) import, read from services/api/src. */
export function contextGraph(root = ROOT) {
  const src = path.join(root, API_SRC);
  const graph = Object.fromEntries(CONTEXTS.map((c) => [c, new Set()]));
  for (const context of CONTEXTS) {
    const files = fs.readdirSync(path.join(src, context), { recursive: true, encoding: 'utf8' });
    for (const file of files.filter((f) => /\.tsx?$/.test(f) && !isTest(f))) {
      const from = path.join(src, context, file);
      for (const [, spec, bare] of fs.readFileSync(from, 'utf8').matchAll(STATIC_IMPORT)) {
        const target = spec ?? bare;
        if (!target.startsWith('.')) continue;
        const [top] = path.relative(src, path.resolve(path.dirname(from), target)).split(path.sep);
        if (top !== context && CONTEXTS.includes(top)) graph[context].add(top);
      }
    }
  }
  return graph;
}

/**
 * The edges of `graph` that lie on a cycle, each with one cycle through it:
 * `[{from, to, cycle: [from, to, …, from]}]`.
 */
export function contextCycles(graph) {
  const pathBetween = (start, goal) => {
    const previous = new Map([[start, null]]);
    const queue = [start];
    while (queue.length) {
      const node = queue.shift();
      if (node === goal) {
        const way = [];
        for (let at = goal; at !== null; at = previous.get(at)) way.unshift(at);
        return way;
      }
      for (const next of [...(graph[node] ?? [])].sort()) {
        if (!previous.has(next)) {
          previous.set(next, node);
          queue.push(next);
        }
      }
    }
    return null;
  };
  return Object.keys(graph)
    .sort()
    .flatMap((from) =>
      [...graph[from]].sort().flatMap((to) => {
        const back = pathBetween(to, from);
        return back ? [{ from, to, cycle: [from, ...back] }] : [];
      }),
    );
}

const CYCLES = contextCycles(contextGraph());

function declaredPackages(ws) {
  const pkg = PACKAGES[ws];
  const declared = new Set([
    pkg.name,
    ...Object.keys(pkg.dependencies ?? {}),
    ...Object.keys(pkg.devDependencies ?? {}),
  ]);
  const undeclared = Object.values(PACKAGES)
    .map((p) => p.name)
    .filter((name) => !declared.has(name));
  return undeclared.length
    ? [
        {
          group: undeclared.flatMap((name) => [name, `${name}/*`]),
          message: `not a dependency of ${ws}/package.json: workspaces only import the packages they declare, and they depend downwards (docs/architecture.md)`,
        },
      ]
    : [];
}

const INTO_ANOTHER_WORKSPACE = {
  regex: '^(\\.\\./)+(platform|event-store|projections|scripts|web|services|api/src|worker/src)/',
  message: 'a relative import into another workspace: import its package instead',
};
const NO_FASTIFY = {
  group: ['fastify', 'fastify-*', '@fastify/*'],
  allowTypeImports: true,
  message:
    'Fastify is loaded by http/ folders only (type imports are fine): the worker loads the modules without the HTTP app',
};
const APP_FILES = 'app|server|main|modules|migrations|commands|test-app|index';

/** Patterns for a file `depth` folders below services/api/src/<context>/. */
function contextPatterns(context, depth, inHttp) {
  const toSrc = `(\\.\\./){${depth}}`;
  const others = CONTEXTS.filter((c) => c !== context);
  return [
    ...declaredPackages('services/api'),
    INTO_ANOTHER_WORKSPACE,
    ...CYCLES.filter((edge) => edge.from === context).map((edge) => ({
      regex: `^${toSrc}${edge.to}/`,
      message: `a cycle between contexts (${edge.cycle.join(' → ')}): dependencies between contexts point one way; what the lower one needs from the higher goes through a port it declares (docs/architecture.md)`,
    })),
    ...(others.length
      ? [
          {
            regex: `^${toSrc}(${others.join('|')})/(?!index\\.js$)`,
            message:
              "another context's internals: import what it exposes from its index.ts (its public face)",
          },
        ]
      : []),
    {
      regex: `^${toSrc}((${APP_FILES})\\.js$|(realtime|security)/)`,
      message: 'the app is built from the contexts, not the other way round',
    },
    ...(inHttp
      ? []
      : [
          NO_FASTIFY,
          {
            // The context's http/ folder, or an area's (actors/growers/http/).
            regex: '(^|/)http/',
            message:
              "a context's routes are loaded only through its module's lazy `http` (the worker must not load them)",
          },
        ]),
  ];
}

const restrict = (files, patterns, ignores = TESTS) => ({
  files,
  ignores,
  rules: { 'no-restricted-imports': ['error', { patterns }] },
});

const boundaries = [
  // Every workspace: declared packages only; no relative import into another workspace.
  ...WORKSPACES.filter((ws) => ws !== 'web').map((ws) =>
    restrict([`${ws}/**/*.ts`], [...declaredPackages(ws), INTO_ANOTHER_WORKSPACE]),
  ),
  // The kernel and the API's HTTP plumbing sit below the contexts.
  ...['kernel', 'http'].map((folder) =>
    restrict(
      [`${API_SRC}/${folder}/*.ts`],
      [
        ...declaredPackages('services/api'),
        INTO_ANOTHER_WORKSPACE,
        {
          regex: `^\\.\\./((${CONTEXTS.join('|')})/|(${APP_FILES})\\.js$|(realtime|security)/)`,
          message: `${folder}/ is below the contexts and the app: it imports neither`,
        },
        ...(folder === 'kernel'
          ? [
              {
                regex: '^\\.\\./http/',
                message:
                  'kernel/ is the bottom of the API: http/ builds on it, not the other way round',
              },
            ]
          : []),
        ...(folder === 'kernel' ? [NO_FASTIFY] : []),
      ],
    ),
  ),
  // Each context: its core (no routes, no Fastify), then its http/ folder.
  ...CONTEXTS.flatMap((context) =>
    Array.from({ length: MAX_DEPTH }, (_, i) => i + 1).flatMap((depth) => [
      restrict(
        [`${API_SRC}/${context}/${'*/'.repeat(depth - 1)}*.ts`],
        contextPatterns(context, depth, false),
        [...TESTS, `${API_SRC}/${context}/**/http/**`],
      ),
      // http/ at the context's root or in one of its areas (k folders down).
      ...Array.from({ length: Math.max(depth - 1, 0) }, (_, k) =>
        restrict(
          [`${API_SRC}/${context}/${'*/'.repeat(k)}http/${'*/'.repeat(depth - 2 - k)}*.ts`],
          contextPatterns(context, depth, true),
        ),
      ),
    ]),
  ),
  // The worker runs the modules without the HTTP app.
  restrict(
    ['services/worker/src/**/*.ts'],
    [
      ...declaredPackages('services/worker'),
      INTO_ANOTHER_WORKSPACE,
      {
        regex: '^@filiere/api(?!/modules$)',
        message: 'the worker imports @filiere/api/modules only (the app and its routes stay out)',
      },
      NO_FASTIFY,
    ],
  ),
  // Tests: declared packages only.
  ...WORKSPACES.map((ws) =>
    restrict(
      TESTS.map((glob) => `${ws}/${glob}`),
      declaredPackages(ws),
      [],
    ),
  ),
  restrict(['web/**/*.{ts,tsx}'], declaredPackages('web'), []),
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '.data/**',
      'coverage/**',
      'web/src/routeTree.gen.ts',
      'web/src/shared/api/schema.gen.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  ...boundaries,
);
