// A reload the page asks for (a model server it was not loaded with, decision 040; a new version
// of the app, decision 067) keeps what is open: the files and a key held only in memory come back
// after it (lib/reload-handoff.ts).

import { keepKeysForReload } from '../lib/model-settings';
import { activateNewVersion } from '../lib/offline';
import { getServices } from '../services/current';
import { useApp } from '../store/app-store';
import { useAsk } from '../store/ask-store';
import { openSources } from './open-database';

/** `beforeReload` runs once the work is kept, right before the reload. */
export async function reloadKeepingWork(beforeReload?: () => Promise<void>): Promise<void> {
  const app = useApp.getState();
  const active = app.databases.find((d) => d.id === app.activeId)?.name ?? null;
  try {
    await getServices().reloadHandoff.keep(openSources(), active);
  } catch (e) {
    // Storage refused (private mode, quota): say so before the files are lost, and let the person choose.
    const go = window.confirm(
      `The open files could not be kept for the reload (${e instanceof Error ? e.message : String(e)}); you would open them again after it. Reload anyway?`,
    );
    if (!go) return;
  }
  keepKeysForReload(useAsk.getState().model);
  await beforeReload?.();
  location.reload();
}

/** Reloads into the newest build: its waiting service worker takes over first (lib/offline.ts). */
export function reloadToNewVersion(): Promise<void> {
  return reloadKeepingWork(() => activateNewVersion());
}
