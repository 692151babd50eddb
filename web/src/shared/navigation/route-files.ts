/// <reference types="vite/client" />

/**
 * The URL path a TanStack Router file route serves (`src/routes/…`, flat `a.b.tsx` or nested
 * `a/b.tsx`), or null when the file is no route: `__root`, and files or folders starting with
 * `-` (helpers beside the routes). Pathless layouts (`_app`) and groups (`(x)`) add no
 * segment, `index` and `route` files serve their folder's path.
 */
export function routePathOfFile(file: string): string | null {
  const name = file.replace(/^.*?\broutes\//, '').replace(/(\.lazy)?\.tsx?$/, '');
  const segments = name.split(/[/.]/);
  if (name === '__root' || segments.some((s) => s.startsWith('-'))) return null;
  const parts = segments
    .filter((s) => !s.startsWith('_') && !/^\(.*\)$/.test(s))
    .map((s) => s.replace(/_$/, ''));
  if (parts.at(-1) === 'index' || parts.at(-1) === 'route') parts.pop();
  return `/${parts.join('/')}`;
}

/**
 * Every path of the app's route tree, read from the route files themselves (the files the
 * router's generated `routeTree.gen.ts` is made of; `menu.test.ts` checks the two agree).
 * Only the names are read here: no route module is loaded.
 */
export const FILE_ROUTE_PATHS: ReadonlySet<string> = new Set(
  Object.keys(import.meta.glob('../../routes/**/*.{ts,tsx}'))
    .map(routePathOfFile)
    .filter((path): path is string => path !== null),
);
