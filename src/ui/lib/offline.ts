// The service worker that keeps the app usable offline after the first visit (precache of the
// whole build; see docs/decisions/041-offline-service-worker.md). Built page only: the dev
// server has no sw.js.
//
// A new build's worker waits instead of taking over (decision 067): when it activates it deletes
// the old build's files from its cache, and a page of the old build still loads parts of itself
// lazily (the SQL editor, charts) from there. The page is told, and the person chooses when to
// reload; the worker activates then, or when every tab of the old build is closed.

/** 'waiting': installed, activates on Reload; 'active': another tab activated it, this page is the old build. */
export type NewVersion = 'waiting' | 'active';

type WorkerLike = Pick<ServiceWorker, 'state' | 'postMessage' | 'addEventListener'>;

/** The parts of a registration this file uses (tests pass fakes). */
export interface RegistrationLike {
  readonly installing: WorkerLike | null;
  readonly waiting: WorkerLike | null;
  addEventListener(type: 'updatefound', listener: () => void): void;
}

/** The parts of `navigator.serviceWorker` this file uses. */
export interface ContainerLike {
  readonly controller: unknown;
  addEventListener(type: 'controllerchange', listener: () => void, options?: { once: boolean }): void;
  removeEventListener(type: 'controllerchange', listener: () => void): void;
  getRegistration(): Promise<RegistrationLike | undefined>;
}

export function registerOfflineWorker(onNewVersion: (version: NewVersion) => void): void {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.register(`${import.meta.env.BASE_URL}sw.js`).then(
    (registration) => watchForNewVersion(registration, navigator.serviceWorker, onNewVersion),
    () => {
      /* private mode or an old browser: the app works online as before */
    },
  );
}

/**
 * Calls `onNewVersion` when a build newer than this page's is installed and waiting, or was
 * activated by another tab. A first visit's worker (the page had none) is no new version.
 */
export function watchForNewVersion(
  registration: RegistrationLike | undefined,
  container: ContainerLike,
  onNewVersion: (version: NewVersion) => void,
): void {
  // A browser that blocks service workers (an automated one, a policy) can resolve with nothing.
  if (!registration) return;
  if (registration.waiting && container.controller) onNewVersion('waiting');
  registration.addEventListener('updatefound', () => {
    const worker = registration.installing;
    worker?.addEventListener('statechange', () => {
      if (worker.state === 'installed' && container.controller) onNewVersion('waiting');
    });
  });
  let controlled = !!container.controller;
  container.addEventListener('controllerchange', () => {
    if (controlled) onNewVersion('active');
    controlled = true;
  });
}

/**
 * Lets the waiting worker take over (the generated sw.js activates on this message) and resolves
 * once it has, so that the reload that follows loads the new build. Without a waiting worker
 * (already active, or none at all) it resolves at once: a reload is all there is to do.
 */
export async function activateNewVersion(
  // Undefined where the browser has no service workers (the types say otherwise).
  container: ContainerLike | undefined = navigator.serviceWorker,
): Promise<void> {
  const waiting = (await container?.getRegistration().catch(() => undefined))?.waiting;
  if (!waiting) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      container.removeEventListener('controllerchange', done);
      resolve();
    };
    // A page the worker does not control gets no controllerchange: its state says it instead.
    container.addEventListener('controllerchange', done);
    waiting.addEventListener('statechange', () => {
      if (waiting.state === 'activated' || waiting.state === 'redundant') done();
    });
    waiting.postMessage({ type: 'SKIP_WAITING' });
  });
}
