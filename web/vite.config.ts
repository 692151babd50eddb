import { constants as zlib } from 'node:zlib';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { VitePWA } from 'vite-plugin-pwa';
import { routerConfig } from './scripts/router-config.js';

/**
 * The heavy libraries, each in a chunk of its own that only the screens using it load: the map
 * (sites, coverage zones), the PDF viewer, the charts (dashboard, reporting, wallet), the
 * country outlines (places). The service worker does not download them at install (every phone
 * that opens the app would pay ~4 MB): they are cached the first time a screen uses them.
 */
const HEAVY_CHUNKS = {
  maplibre: /[\\/]node_modules[\\/](maplibre-gl|@maplibre)[\\/]/,
  pdfjs: /[\\/]node_modules[\\/]pdfjs-dist[\\/]/,
  charts: /[\\/]node_modules[\\/](@nivo|@react-spring|lodash|d3-[a-z-]+|internmap)[\\/]/,
  countries: /[\\/]node_modules[\\/](world-atlas|topojson-client)[\\/]/,
};
const NOT_PRECACHED = [
  ...Object.keys(HEAVY_CHUNKS).map((name) => `assets/${name}-*`),
  'assets/pdf.worker*',
  'assets/maplibre-gl-worker*',
];

/**
 * `<link rel="modulepreload">` in index.html for these chunk groups: the login form (and the
 * signed-in area, which imports them too) needs them, and the entry only asks for them once it
 * has run; preloaded, they download beside the entry instead of one round trip after it.
 */
function preloadChunks(names: readonly string[]): Plugin {
  return {
    name: 'filiere:preload-chunks',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (_html, { bundle }) =>
        Object.values(bundle ?? {})
          .filter((chunk) => chunk.type === 'chunk' && names.includes(chunk.name))
          .map((chunk) => ({
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: true, href: `/${chunk.fileName}` },
            injectTo: 'head' as const,
          })),
    },
  };
}

export default defineConfig({
  plugins: [
    // The router plugin must come before the React plugin: it generates routeTree.gen.ts.
    tanstackRouter({ target: 'react', autoCodeSplitting: true, ...routerConfig }),
    react(),
    preloadChunks(['sign-in']),
    // A .br and a .gz copy beside each compressible file, sent by the API as they are
    // (web-static.ts, preCompressed): brotli at its best quality costs the build, not requests.
    // WEB_BROTLI_QUALITY lowers it for a build that only tests serve (scripts/src/web-build.ts).
    compression({
      algorithms: [
        defineAlgorithm('brotliCompress', {
          params: {
            [zlib.BROTLI_PARAM_QUALITY]: Number(
              process.env.WEB_BROTLI_QUALITY ?? zlib.BROTLI_MAX_QUALITY,
            ),
          },
        }),
        'gzip',
      ],
      threshold: 1024,
    }),
    VitePWA({
      // A new version waits until the user accepts it (UpdateBanner): a page never runs half
      // of one version and half of the next.
      registerType: 'prompt',
      injectRegister: false,
      includeAssets: ['icon.svg'],
      manifest: {
        name: 'Filière — ananas du Bénin',
        short_name: 'Filière',
        description: 'La filière ananas du Bénin : contrats, intrants, paiements et portefeuille.',
        lang: 'fr',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        theme_color: '#2e7d32',
        background_color: '#ffffff',
        icons: [
          { src: '/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
          { src: '/icon.svg', sizes: 'any', type: 'image/svg+xml' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{js,mjs,css,html,svg,png,woff2}'],
        globIgnores: NOT_PRECACHED,
        // Every address of the app opens the shell (the client router takes it); the API never.
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [/^\/api(\/|$)/],
        cleanupOutdatedCaches: true,
        // The first install takes the page that installed it: the screens after the login page
        // (the shell, the dashboard) come from the cache it filled while the user typed. A new
        // version still waits for 'Mettre à jour' (no skipWaiting).
        clientsClaim: true,
        runtimeCaching: [
          {
            // Named after their content: a cached copy is always the right one.
            urlPattern: ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith('/assets/'),
            handler: 'CacheFirst',
            options: { cacheName: 'assets', expiration: { maxEntries: 60 } },
          },
        ],
      },
    }),
  ],
  server: {
    proxy: { '/api': { target: 'http://127.0.0.1:3000', ws: true } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // A group takes its own modules only, not React and the rest of what they import.
          includeDependenciesRecursively: false,
          groups: [
            ...Object.entries(HEAVY_CHUNKS).map(([name, test]) => ({ name, test, priority: 20 })),
            { name: 'shell', tags: ['$initial' as const], priority: 10 },
            {
              name: 'sign-in',
              test: /[\\/]src[\\/]routes[\\/]auth(\.tsx|[\\/]login\.tsx)/,
              includeDependenciesRecursively: true,
              priority: 5,
            },
            {
              name: 'screens',
              test: /[\\/]node_modules[\\/](@mantine|@tabler|react-hook-form|@hookform)[\\/]|[\\/]src[\\/](shared|app)[\\/]/,
              minShareCount: 2,
              priority: 3,
            },
          ],
        },
      },
    },
  },
});
