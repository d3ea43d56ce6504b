import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { BASE_POLICY, BASE_POLICY_HEADER, REFERRER_POLICY } from './src/core/security/csp';

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

const MB = 1024 * 1024;

export default defineConfig({
  plugins: [
    react(),
    securityMeta(),
    // Offline after the first visit: everything the build holds (shell, sql.js and ONNX wasm,
    // Monaco, the demo database, self-hosted models under /models/) is precached by a service
    // worker; models added to /models/ after the build are cached on first use. See
    // docs/decisions/041-offline-service-worker.md.
    VitePWA({
      strategies: 'generateSW',
      registerType: 'autoUpdate',
      injectRegister: false,
      manifest: false,
      workbox: {
        globPatterns: ['**/*.{html,js,mjs,css,wasm,ttf,woff2,sqlite,json,onnx,txt}'],
        maximumFileSizeToCacheInBytes: 64 * MB,
        navigateFallback: 'index.html',
        clientsClaim: true,
        skipWaiting: true,
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
    headers: { 'Content-Security-Policy': BASE_POLICY_HEADER, 'Referrer-Policy': REFERRER_POLICY },
  },
  build: { target: 'es2022', chunkSizeWarningLimit: 4096 },
});
