import { describe, expect, it } from 'vitest';
import { formatServeLink, loopbackOrigin, parseServeLink } from './link';
import { clampQueryOptions, DEFAULT_SERVE_LIMITS } from './protocol';

const TOKEN = 'aB3_-xYz0123456789abcdefGHIJ';

describe('the dowser serve link', () => {
  it('round-trips through the page address, the token in the fragment', () => {
    const url = formatServeLink('http://localhost:5173/', { origin: 'http://127.0.0.1:7357', token: TOKEN });
    expect(url).toBe(`http://localhost:5173/#serve=http%3A%2F%2F127.0.0.1%3A7357&token=${TOKEN}`);
    expect(parseServeLink(new URL(url).hash)).toEqual({ link: { origin: 'http://127.0.0.1:7357', token: TOKEN } });
  });

  it('names only this machine: another host, https or credentials are refused with a reason', () => {
    expect(loopbackOrigin('http://localhost:9/x')).toBe('http://localhost:9');
    expect(loopbackOrigin('http://[::1]:9')).toBe('http://[::1]:9');
    for (const bad of [
      'http://evil.example:7357',
      'https://127.0.0.1:7357',
      'http://u:p@127.0.0.1:1',
      'file:///x',
      'nope',
    ])
      expect(loopbackOrigin(bad), bad).toBeNull();
    const refused = parseServeLink(`#serve=${encodeURIComponent('http://10.0.0.5:7357')}&token=${TOKEN}`);
    expect(refused).toEqual({ error: expect.stringContaining('only to dowser serve on this machine') });
  });

  it('a missing or short token is an error, a fragment without serve is no link', () => {
    expect(parseServeLink('#serve=http%3A%2F%2F127.0.0.1%3A1&token=abc')).toEqual({
      error: expect.stringContaining('no valid token'),
    });
    expect(parseServeLink('#workspace')).toBeNull();
    expect(parseServeLink('')).toBeNull();
  });
});

describe("serve's limits", () => {
  it("clamps what the page asks to serve's own bounds and leaves the rest", () => {
    const limits = { ...DEFAULT_SERVE_LIMITS, maxRows: 50 };
    expect(clampQueryOptions({ maxRows: 1_000_000, offset: 10, maxResultBytes: 2 ** 40 }, limits)).toEqual({
      maxRows: 50,
      offset: 10,
      maxCellChars: undefined,
      maxResultBytes: DEFAULT_SERVE_LIMITS.maxResultBytes,
    });
    expect(clampQueryOptions({ maxRows: 20 }, limits).maxRows).toBe(20);
  });
});
