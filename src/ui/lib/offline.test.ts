// A new build's service worker waits and the page is told (decision 067); the page's Reload lets it
// take over and reloads only once it has.

import { describe, expect, it, vi } from 'vitest';
import { activateNewVersion, watchForNewVersion, type NewVersion } from './offline';

class FakeWorker extends EventTarget {
  state: ServiceWorkerState = 'installing';
  postMessage = vi.fn();
  become(state: ServiceWorkerState) {
    this.state = state;
    this.dispatchEvent(new Event('statechange'));
  }
}

class FakeRegistration extends EventTarget {
  installing: FakeWorker | null = null;
  waiting: FakeWorker | null = null;
  /** The browser found a byte-different sw.js and starts installing it. */
  found(worker: FakeWorker) {
    this.installing = worker;
    this.dispatchEvent(new Event('updatefound'));
  }
}

class FakeContainer extends EventTarget {
  constructor(
    public controller: object | null,
    public registration?: FakeRegistration,
  ) {
    super();
  }
  getRegistration = () => Promise.resolve(this.registration);
  /** A worker took control of the page (a claim, or an activation). */
  controlledBy(worker: object) {
    this.controller = worker;
    this.dispatchEvent(new Event('controllerchange'));
  }
}

function watch(registration: FakeRegistration, container: FakeContainer) {
  const seen: NewVersion[] = [];
  watchForNewVersion(registration, container, (v) => seen.push(v));
  return seen;
}

describe('watchForNewVersion', () => {
  it('says nothing on a first visit: the first worker installs and claims the page', () => {
    const registration = new FakeRegistration();
    const container = new FakeContainer(null);
    const seen = watch(registration, container);
    const first = new FakeWorker();
    registration.found(first);
    first.become('installed');
    first.become('activated');
    container.controlledBy(first);
    expect(seen).toEqual([]);
  });

  it('a page of the old build is told when the new build is installed, and is not taken over', () => {
    const registration = new FakeRegistration();
    const old = {};
    const container = new FakeContainer(old);
    const seen = watch(registration, container);
    const next = new FakeWorker();
    registration.found(next);
    next.become('installed');
    expect(seen).toEqual(['waiting']);
    expect(container.controller).toBe(old);
  });

  it('a page loaded while the new build already waits is told at once', () => {
    const registration = new FakeRegistration();
    registration.waiting = new FakeWorker();
    expect(watch(registration, new FakeContainer({}))).toEqual(['waiting']);
  });

  it('a page whose worker was replaced by another tab learns that it is now the old build', () => {
    const container = new FakeContainer({});
    const seen = watch(new FakeRegistration(), container);
    container.controlledBy(new FakeWorker());
    expect(seen).toEqual(['active']);
  });

  it('a browser that blocks service workers resolves the registration with nothing: no error, no notice', () => {
    const seen: NewVersion[] = [];
    // It threw "Cannot read properties of undefined (reading 'waiting')" as an uncaught page error.
    expect(() => watchForNewVersion(undefined, new FakeContainer(null), (v) => seen.push(v))).not.toThrow();
    expect(seen).toEqual([]);
  });
});

describe('activateNewVersion', () => {
  it('asks the waiting worker to take over and resolves only once it controls the page', async () => {
    const registration = new FakeRegistration();
    const waiting = new FakeWorker();
    waiting.state = 'installed';
    registration.waiting = waiting;
    const container = new FakeContainer({}, registration);
    let activated = false;
    const done = activateNewVersion(container).then(() => (activated = true));
    await vi.waitFor(() => expect(waiting.postMessage).toHaveBeenCalledWith({ type: 'SKIP_WAITING' }));
    await Promise.resolve();
    expect(activated).toBe(false);
    container.controlledBy(waiting);
    await done;
    expect(activated).toBe(true);
  });

  it('a page no worker controls resolves when the worker is activated', async () => {
    const registration = new FakeRegistration();
    const waiting = new FakeWorker();
    registration.waiting = waiting;
    const done = activateNewVersion(new FakeContainer(null, registration));
    await vi.waitFor(() => expect(waiting.postMessage).toHaveBeenCalled());
    waiting.become('activated');
    await expect(done).resolves.toBeUndefined();
  });

  it('without a waiting worker there is nothing to wait for', async () => {
    await expect(activateNewVersion(new FakeContainer({}, new FakeRegistration()))).resolves.toBeUndefined();
    await expect(activateNewVersion(new FakeContainer({}))).resolves.toBeUndefined();
  });
});
