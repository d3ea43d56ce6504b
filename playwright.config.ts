import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './e2e/chromium';

// Debian's Chromium (apt-get install chromium); Playwright never downloads a browser here.
const port = Number(process.env.E2E_PORT ?? 4317);

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list'], ['json', { outputFile: 'reports/e2e.json' }]] : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    acceptDownloads: true,
    viewport: { width: 1400, height: 900 },
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
    trace: 'retain-on-failure',
    // The built page registers an offline service worker; only e2e/offline.spec.ts lets it run,
    // so that every other test sees the network as the page sends it (and can route it).
    serviceWorkers: 'block',
  },
  webServer: {
    // The production build, served as a user would get it (workers, wasm and Monaco bundled).
    command: `npm run build && npx vite preview --port ${port} --strictPort --host 127.0.0.1`,
    url: `http://127.0.0.1:${port}`,
    timeout: 240_000,
    reuseExistingServer: !process.env.CI,
  },
});
