// Opening a database that `dowser serve` serves (issue 36): the link's one-time token becomes a
// session, the database shows like a file's (schema, starter query, Ask), and its calls go to
// serve. A reload reconnects with the kept session; a link pasted later connects at once when the
// page may reach serve's origin, or after a reload that keeps the open files when it may not.

import { describeError } from '../../core/errors';
import { parseServeLink, type ServeLink } from '../../core/remote/link';
import { startSession } from '../../core/remote/http-engine';
import type { OpenReport } from '../../core/types';
import { canConnect } from '../lib/connect-policy';
import { bindServedDb, keepServed, keptServed, pendingLink, type KeptServed } from '../lib/served-sessions';
import { getServices } from '../services/current';
import { useApp } from '../store/app-store';
import { newId, showOpened } from './open-database';
import { reloadKeepingWork } from './reload';

function attach(kept: KeptServed, readyMs: number): string {
  const id = newId();
  getServices().engine.attachServed(id, kept.session);
  bindServedDb(id, kept.session.session);
  const report: OpenReport = { ...kept.report, id, served: { origin: kept.session.origin } };
  useApp.getState().upsertDb({ id, name: report.name, sizeBytes: report.sizeBytes, status: 'opening', progress: 0 });
  showOpened(id, report.name, report, readyMs, false);
  return id;
}

/** Exchanges the link's token and opens the served database; null (with a notice) when serve refuses or is gone. */
export async function openServed(link: ServeLink): Promise<string | null> {
  const t0 = performance.now();
  useApp.getState().setFetching('dowser serve');
  try {
    const { session, report } = await startSession(link, (input, init) => fetch(input, init));
    const kept = { session, report };
    keepServed(kept);
    return attach(kept, Math.round(performance.now() - t0));
  } catch (e) {
    useApp.getState().notify('error', `Could not connect to dowser serve at ${link.origin}: ${describeError(e)}`, null);
    return null;
  } finally {
    useApp.getState().setFetching(null);
  }
}

/**
 * At start-up: a link in the address, else the sessions this tab kept (a reload). True when it
 * opened something (or tried a link: its error is shown instead of the demo).
 */
export async function connectServedAtStart(): Promise<boolean> {
  const { link, error } = pendingLink();
  if (error) useApp.getState().notify('error', error, null);
  const kept = keptServed();
  for (const k of kept) attach(k, 0);
  if (link) await openServed(link);
  return Boolean(link || error || kept.length);
}

/** A serve link the person pasted or the address changed to. */
export async function connectServeLink(text: string): Promise<void> {
  const hash = text.includes('#') ? text.slice(text.indexOf('#')) : text;
  const parsed = parseServeLink(hash.startsWith('#') ? hash : `#${hash}`);
  if (!parsed) {
    useApp
      .getState()
      .notify('error', 'That is not a dowser serve link: copy the whole link `dowser serve` printed.', null);
    return;
  }
  if ('error' in parsed) {
    useApp.getState().notify('error', parsed.error, null);
    return;
  }
  if (canConnect(parsed.link.origin)) {
    await openServed(parsed.link);
    return;
  }
  // The connect policy was fixed when the page loaded: reload (keeping the open files) with the link in the address.
  await reloadKeepingWork(async () => {
    history.replaceState(null, '', `${location.pathname}${location.search}${hash.startsWith('#') ? hash : `#${hash}`}`);
  });
}
