// Types of page-bench.mjs, for the page benches written in TypeScript (bench-hostile-page.ts).
import type { Browser, BrowserContext, Page } from '@playwright/test';

/** Resident memory of every Chromium process, MB. */
export function chromiumRssMB(): number;
export function launchChromium(): Promise<Browser>;
/** A fresh page of the built app; the longest main-thread task since the demo settled is in `window.__longest`. */
export function openBenchPage(
  browser: Browser,
  url: string,
  settings?: Record<string, unknown> | null,
): Promise<{ context: BrowserContext; page: Page }>;
/** `stop()` gives the peak memory above what Chromium held at the start, MB. */
export function sampleMemory(): { stop(): number };
