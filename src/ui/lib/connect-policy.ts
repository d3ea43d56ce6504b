// The page connects only to the app and the model servers configured when it loaded (see
// core/security/csp.ts and docs/decisions/040-csp-connect-src.md): at start-up the built page
// adds a second CSP that names them. A server configured later is reachable after a reload;
// until then the page says so instead of failing with a puzzling network error.

import { connectAllowed, connectPolicy } from '../../core/security/csp';
import { providerById } from '../../core/llm/providers';
import { LlmError } from '../../core/llm/types';
import { originOf, serverOf, type ModelSettings } from './model-settings';

/** null: no narrowing policy (the dev server, tests). */
let allowed: string[] | null = null;

/**
 * The origins a page loaded with these settings may connect to, besides itself: the configured
 * server and what the provider downloads, nothing else. Not the presets a person might pick
 * later (each is a place injected code could send data to with a key of its own; picking one
 * takes a reload that keeps the work, decision 063). Not the embedding model's hub either: the
 * model loads in its own worker, whose policy comes from the worker script's headers.
 */
export function originsFor(model: Pick<ModelSettings, 'provider' | 'baseUrl'>): string[] {
  const server = originOf(serverOf(model));
  const out = server ? [server] : [];
  out.push(...(providerById(model.provider)?.connectOrigins ?? []));
  return [...new Set(out)];
}

/** Adds the narrowing policy to the page (once, at start-up, in the built page). */
export function narrowConnections(origins: string[]): void {
  allowed = origins;
  const meta = document.createElement('meta');
  meta.httpEquiv = 'Content-Security-Policy';
  meta.content = connectPolicy(origins);
  document.head.appendChild(meta);
}

/** May the page fetch `url` now, or does it need a reload first? */
export function canConnect(url: string): boolean {
  return allowed === null || connectAllowed(url, allowed, location.href);
}

export function needsReloadFor(url: string): string | null {
  if (canConnect(url)) return null;
  return originOf(url) ?? url;
}

/** The first origin these settings need that the page may not reach until a reload, or null. */
export function reloadNeededFor(model: Pick<ModelSettings, 'provider' | 'baseUrl'>): string | null {
  if (allowed === null) return null;
  const reachable = allowed;
  return originsFor(model).find((o) => !reachable.includes(o) && !canConnect(o)) ?? null;
}

/** fetch for model clients: a server the page may not reach yet fails with what to do. */
export const policedFetch: typeof fetch = (input, init) => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const blocked = needsReloadFor(url);
  if (blocked)
    return Promise.reject(
      new LlmError(
        'llm_network',
        `This page connects only to the model servers set when it loaded. Reload the page to connect to ${blocked} (your settings are kept).`,
      ),
    );
  return fetch(input, init);
};
