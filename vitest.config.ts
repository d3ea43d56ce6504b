import { defineConfig } from 'vitest/config';

// CI asks for a JSON report too (VITEST_JSON=path) to total unit and browser tests in one line.
const json = process.env.VITEST_JSON;

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'scripts/**/*.test.ts'],
    environment: 'node',
    // Tests never keep indexes in the user's cache folder; those that test keeping set their own.
    env: { DOWSER_CACHE: 'off' },
    testTimeout: 30_000,
    hookTimeout: 30_000,
    reporters: json ? ['default', 'json'] : ['default'],
    ...(json ? { outputFile: { json } } : {}),
  },
});
