import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { BASE_POLICY, policyHeaderFor, REFERRER_POLICY } from './src/core/security/csp';

/** The CSP and referrer meta tags, in the built page only (the dev server injects inline scripts). */
function securityMeta(): Plugin {
  return {
    name: 'dowser-security-meta',
    apply: 'build',
    transformIndexHtml: () => [
      {
        tag: 'meta',
        attrs: { 'http-equiv': 'Content-Security-Policy', content: BASE_POLICY },
        injectTo: 'head-prepend',
      },
      { tag: 'meta', attrs: { name: 'referrer', content: REFERRER_POLICY }, injectTo: 'head-prepend' },
    ],
  };
}

/**
 * The CSP header of `vite preview` (`npm start`), per file: a worker takes its policy from its own
 * script's response, so worker scripts get their own narrow one (core/security/csp.ts).
 */
function securityHeaders(): Plugin {
  return {
    name: 'dowser-security-headers',
    configurePreviewServer(server) {
      server.middlewares.use((req, res, next) => {
        res.setHeader('Content-Security-Policy', policyHeaderFor(req.url ?? '/'));
        next();
      });
    },
  };
}

const MB = 1024 * 1024;

export default defineConfig({
  plugins: [
    react(),
    securityMeta(),
    securityHeaders(),
    // Offline after the first visit: everything the build holds (shell, sql.js and ONNX wasm,
    // Monaco, the demo database, self-hosted models under /models/) is precached by a service
    // worker; models added to /models/ after the build are cached on first use. See
    // docs/decisions/041-offline-service-worker.md.
    VitePWA({
      strategies: 'generateSW',
      // A new build waits until the page asks (its Reload) or every tab of the old build is
      // closed: activating deletes the old build's files, which an open page still loads lazily
      // (docs/decisions/067-new-build-waits.md). Claiming reaches only pages no worker controls
      // yet (the first visit).
      registerType: 'prompt',
      injectRegister: false,
      manifest: false,
      workbox: {
        globPatterns: ['**/*.{html,js,mjs,css,wasm,ttf,woff2,sqlite,json,onnx,txt}'],
        maximumFileSizeToCacheInBytes: 64 * MB,
        navigateFallback: 'index.html',
        clientsClaim: true,
        skipWaiting: false,
        runtimeCaching: [
          {
            urlPattern: ({ url, sameOrigin }) => sameOrigin && url.pathname.includes('/models/'),
            handler: 'NetworkFirst',
            options: {
              cacheName: 'dowser-models',
              networkTimeoutSeconds: 5,
              // A single-page server answers a missing file with index.html: never keep that.
              plugins: [
                {
                  cacheWillUpdate: async ({ response }) =>
                    response.ok && !/text\/html/i.test(response.headers.get('content-type') ?? '') ? response : null,
                },
              ],
            },
          },
        ],
      },
    }),
  ],
  // sql.js is imported only from the database worker; pre-bundle it so the dev server serves it.
  optimizeDeps: { include: ['sql.js', 'comlink', '@huggingface/transformers'] },
  worker: { format: 'es' },
  server: { port: 5173, strictPort: false },
  preview: {
    port: 4173,
    // The CSP is set per file by securityHeaders().
    headers: { 'Referrer-Policy': REFERRER_POLICY },
  },
  build: { target: 'es2022', chunkSizeWarningLimit: 4096 },
});
