// A part of the page loaded on demand (`import()`: the SQL editor, Monaco, charts) that can no
// longer be fetched. After a deploy the server has only the new build's files, so trying again
// cannot work: only a reload into the new build does (decision 067).

/** What each browser (and Vite's preload of a chunk's CSS) says when a lazily loaded part fails to load. */
const CHUNK_LOAD_FAILED = [
  /Failed to fetch dynamically imported module/i, // Chromium
  /error loading dynamically imported module/i, // Firefox
  /Importing a module script failed/i, // Safari
  /Unable to preload CSS for/i, // Vite's preload helper
];

export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  return CHUNK_LOAD_FAILED.some((pattern) => pattern.test(message));
}
