import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { routerConfig } from './scripts/router-config.js';

export default defineConfig({
  // The router plugin must come before the React plugin: it generates routeTree.gen.ts.
  plugins: [tanstackRouter({ target: 'react', autoCodeSplitting: true, ...routerConfig }), react()],
  server: {
    proxy: { '/api': { target: 'http://127.0.0.1:3000', ws: true } },
  },
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 1500 },
});
