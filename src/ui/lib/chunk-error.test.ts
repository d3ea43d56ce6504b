import { describe, expect, it } from 'vitest';
import { isChunkLoadError } from './chunk-error';

describe('isChunkLoadError', () => {
  it("recognises each browser's words for a lazily loaded part that could not be fetched", () => {
    const url = 'https://dowser.example/assets/SqlEditor-DpWi4ZKT.js';
    expect(isChunkLoadError(new TypeError(`Failed to fetch dynamically imported module: ${url}`))).toBe(true);
    expect(isChunkLoadError(new TypeError(`error loading dynamically imported module: ${url}`))).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('Unable to preload CSS for /assets/monaco-setup-CDDeH57i.css'))).toBe(true);
    expect(isChunkLoadError(`Failed to fetch dynamically imported module: ${url}`)).toBe(true);
  });

  it('leaves other errors to their own message', () => {
    expect(isChunkLoadError(new TypeError('events is not iterable'))).toBe(false);
    expect(isChunkLoadError(new TypeError('Failed to fetch'))).toBe(false);
    expect(isChunkLoadError(null)).toBe(false);
  });
});
