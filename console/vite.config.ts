import { defineConfig } from 'vite';

// The console is served by the service at /console/ and embedded in the
// binary, so the build must be byte-for-byte reproducible: no timestamps, no
// absolute paths, stable chunk names (make verify rebuilds it and compares).
//
// `npm run dev` proxies /graphql to COMMERCE_BASE_URL (default
// http://127.0.0.1:8080); DEV_API_KEY, when set, is sent as the bearer key.
const target = process.env.COMMERCE_BASE_URL ?? 'http://127.0.0.1:8080';
const key = process.env.DEV_API_KEY;

export default defineConfig({
  base: '/console/',
  esbuild: { jsx: 'automatic', legalComments: 'none' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    sourcemap: false,
    target: 'es2022',
    reportCompressedSize: false,
    rollupOptions: {
      output: {
        entryFileNames: 'assets/[name]-[hash].js',
        chunkFileNames: 'assets/[name]-[hash].js',
        assetFileNames: 'assets/[name]-[hash][extname]',
      },
    },
  },
  server: {
    proxy: {
      '/graphql': {
        target,
        ws: true,
        headers: key ? { Authorization: `Bearer ${key}` } : undefined,
      },
    },
  },
});
