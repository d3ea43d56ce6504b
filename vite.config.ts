import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  // sql.js is imported only from the database worker; pre-bundle it so the dev server serves it.
  optimizeDeps: { include: ['sql.js', 'comlink', '@huggingface/transformers'] },
  worker: { format: 'es' },
  server: { port: 5173, strictPort: false },
  preview: { port: 4173 },
  build: { target: 'es2022', chunkSizeWarningLimit: 4096 },
});
