// What the page keeps to reach dowser serve (issue 36): the link's token leaves the address at
// once, a kept session names only a loopback origin, and closing the database forgets it.
import { describe, expect, it } from 'vitest';
import { formatServeLink } from '../../core/remote/link';
import type { OpenReport } from '../../core/types';
import {
  bindServedDb,
  forgetServedDb,
  keepServed,
  keptServed,
  pendingLink,
  servedOrigins,
  takeLinkFromAddress,
} from './served-sessions';

class MemoryStorage implements Storage {
  private items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(k: string) {
    return this.items.get(k) ?? null;
  }
  key(i: number) {
    return [...this.items.keys()][i] ?? null;
  }
  removeItem(k: string) {
    this.items.delete(k);
  }
  setItem(k: string, v: string) {
    this.items.set(k, v);
  }
}

function address(href: string) {
  const url = new URL(href);
  const replaced: string[] = [];
  const loc = { hash: url.hash, pathname: url.pathname, search: url.search } as Location;
  const hist = { replaceState: (_s: unknown, _t: string, to: string) => void replaced.push(to) } as History;
  return { loc, hist, replaced };
}

const TOKEN = 'PMahbNL8Arux-pKM2usWD9x7uF3TV6ZXXnIQ-XbazdY';
const report = { name: 'reader@db:5432/shop', sizeBytes: 0, issues: [] } as unknown as OpenReport;

describe('a serve link in the address', () => {
  it('is taken out of the address before anything else, and given once', () => {
    const href = formatServeLink('http://localhost:5173/app/?x=1', { origin: 'http://127.0.0.1:7357', token: TOKEN });
    const { loc, hist, replaced } = address(href);
    takeLinkFromAddress(loc, hist);
    expect(replaced).toEqual(['/app/?x=1']);
    const storage = new MemoryStorage();
    expect(servedOrigins(storage)).toEqual(['http://127.0.0.1:7357']);
    expect(pendingLink()).toEqual({ link: { origin: 'http://127.0.0.1:7357', token: TOKEN }, error: null });
    expect(pendingLink()).toEqual({ link: null, error: null });
    expect(servedOrigins(storage)).toEqual([]);
  });

  it('naming another machine is refused with a reason, and still leaves the address', () => {
    const { loc, hist, replaced } = address('http://localhost:5173/#serve=http%3A%2F%2Fevil.example%3A80&token=t');
    takeLinkFromAddress(loc, hist);
    expect(replaced).toEqual(['/']);
    const { link, error } = pendingLink();
    expect(link).toBeNull();
    expect(error).toMatch(/connects only to dowser serve on this machine/);
  });

  it('an address without one is left alone', () => {
    const { loc, hist, replaced } = address('http://localhost:5173/#section');
    takeLinkFromAddress(loc, hist);
    expect(replaced).toEqual([]);
    expect(pendingLink()).toEqual({ link: null, error: null });
  });
});

describe('sessions kept for a reload', () => {
  it('keep a session per database, drop entries that name another origin, and forget a closed one', () => {
    const storage = new MemoryStorage();
    keepServed({ session: { origin: 'http://127.0.0.1:7357', session: 'a' }, report }, storage);
    keepServed({ session: { origin: 'http://127.0.0.1:7358', session: 'b' }, report }, storage);
    expect(keptServed(storage).map((k) => k.session.session)).toEqual(['a', 'b']);
    expect(servedOrigins(storage)).toEqual(['http://127.0.0.1:7357', 'http://127.0.0.1:7358']);

    // Something else wrote the key: an origin off this machine is not trusted, garbage is ignored.
    const kept = JSON.parse(storage.getItem('dowser.served')!) as unknown[];
    storage.setItem(
      'dowser.served',
      JSON.stringify([...kept, { session: { origin: 'https://evil.example', session: 'c' }, report }]),
    );
    expect(keptServed(storage).map((k) => k.session.session)).toEqual(['a', 'b']);
    storage.setItem('dowser.served', '{not json');
    expect(keptServed(storage)).toEqual([]);

    keepServed({ session: { origin: 'http://127.0.0.1:7357', session: 'a' }, report }, storage);
    keepServed({ session: { origin: 'http://127.0.0.1:7358', session: 'b' }, report }, storage);
    bindServedDb('db-1', 'a');
    forgetServedDb('db-1', storage);
    expect(keptServed(storage).map((k) => k.session.session)).toEqual(['b']);
    // A file's database has no session: closing it changes nothing.
    forgetServedDb('db-file', storage);
    expect(keptServed(storage).map((k) => k.session.session)).toEqual(['b']);
  });
});
