// The service worker that keeps the app usable offline after the first visit (precache of the
// whole build; see docs/decisions/041-offline-service-worker.md). Built page only: the dev
// server has no sw.js.

export function registerOfflineWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.register(`${import.meta.env.BASE_URL}sw.js`).catch(() => {
    /* private mode or an old browser: the app works online as before */
  });
}
