// Shared by the Vite plugin and scripts/generate-routes.js (typecheck on a fresh clone).
export const routerConfig = {
  routesDirectory: './src/routes',
  generatedRouteTree: './src/routeTree.gen.ts',
  quoteStyle: 'single',
  semicolons: true,
};
