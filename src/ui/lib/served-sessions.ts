// Where the page keeps what it needs to reach `dowser serve` (issue 36). The link's token arrives
// in the address's fragment once; the page takes it out of the address at start-up (so it is not
// in history or a bookmark) and exchanges it for a session. The session, serve's origin and the
// database's report are kept in this tab's sessionStorage, so a reload reconnects and the connect
// policy can name serve's origin before anything connects. Closing the database forgets them.

import { loopbackOrigin, parseServeLink, type ServeLink } from '../../core/remote/link';
import type { ServedSession } from '../../core/remote/http-engine';
import { fromWire, toWire } from '../../core/remote/wire';
import type { OpenReport } from '../../core/types';

const KEY = 'dowser.served';

export interface KeptServed {
  session: ServedSession;
  report: OpenReport;
}

let pending: ServeLink | null = null;
let pendingError: string | null = null;

/** Reads (and removes) a serve link from the page's address: call once at start-up, before the connect policy. */
export function takeLinkFromAddress(loc: Location = location, hist: History = history): void {
  const parsed = parseServeLink(loc.hash);
  if (!parsed) return;
  hist.replaceState(null, '', loc.pathname + loc.search);
  if ('link' in parsed) pending = parsed.link;
  else pendingError = parsed.error;
}

/** The link taken at start-up (once), or why it could not be used. */
export function pendingLink(): { link: ServeLink | null; error: string | null } {
  const out = { link: pending, error: pendingError };
  pending = null;
  pendingError = null;
  return out;
}

export function keptServed(storage: Storage = sessionStorage): KeptServed[] {
  try {
    const list = fromWire(JSON.parse(storage.getItem(KEY) ?? '[]')) as KeptServed[];
    return Array.isArray(list)
      ? list.filter(
          (k) =>
            k &&
            typeof k.session?.session === 'string' &&
            loopbackOrigin(k.session.origin) === k.session.origin &&
            typeof k.report?.name === 'string',
        )
      : [];
  } catch {
    return [];
  }
}

function save(list: KeptServed[], storage: Storage): void {
  try {
    storage.setItem(KEY, JSON.stringify(toWire(list)));
  } catch {
    // Storage full or refused: a reload then needs a new link, nothing else is lost.
  }
}

export function keepServed(kept: KeptServed, storage: Storage = sessionStorage): void {
  save([...keptServed(storage).filter((k) => k.session.session !== kept.session.session), kept], storage);
}

export function forgetServed(session: string, storage: Storage = sessionStorage): void {
  save(
    keptServed(storage).filter((k) => k.session.session !== session),
    storage,
  );
}

/** The session behind each open served database, by the page's id. */
const sessionOfDb = new Map<string, string>();

export function bindServedDb(id: string, session: string): void {
  sessionOfDb.set(id, session);
}

/** Closing a served database forgets its session: a reload does not bring it back. */
export function forgetServedDb(id: string, storage: Storage = sessionStorage): void {
  const session = sessionOfDb.get(id);
  if (session === undefined) return;
  sessionOfDb.delete(id);
  forgetServed(session, storage);
}

/** The serve origins the page needs to reach: the pending link's and the kept sessions'. */
export function servedOrigins(storage: Storage = sessionStorage): string[] {
  const origins = keptServed(storage).map((k) => k.session.origin);
  if (pending) origins.push(pending.origin);
  return [...new Set(origins)];
}
