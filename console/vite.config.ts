import { defineConfig, type Plugin } from 'vite';

// The console is served by the service at /console/ and embedded in the
// binary, so the build must be byte-for-byte reproducible: no timestamps, no
// absolute paths, stable chunk names (make verify rebuilds it and compares).
//
// `npx vite` / `npx vite preview` serve the console and proxy every other
// path (/graphql with its websocket, the pages, /sandbox) to SERVICE_URL
// (default http://127.0.0.1:8080): run the service with BASE_URL set to
// this server's address so that its links come back here.
const target = process.env.SERVICE_URL ?? 'http://127.0.0.1:8080';
const proxy = { '^/(?!console([/?]|$)|@|src/|node_modules/)': { target, ws: true } };

// The service answers /console as /console/; so does the local server.
const slash: Plugin = {
  name: 'console-slash',
  configurePreviewServer(server) {
    server.middlewares.use((req, res, next) => {
      if (req.url === '/console' || req.url?.startsWith('/console?')) {
        res.statusCode = 302;
        res.setHeader('Location', '/console/' + req.url.slice('/console'.length));
        res.end();
        return;
      }
      next();
    });
  },
};

export default defineConfig({
  base: '/console/',
  plugins: [slash],
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
  server: { proxy },
  preview: { proxy },
});
