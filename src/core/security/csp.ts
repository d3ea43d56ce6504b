// The page's Content-Security-Policy (see docs/decisions/040-csp-connect-src.md). Two parts:
// - BASE_POLICY, in the built page's meta tag and the preview server's headers: scripts and
//   workers only from the app (WebAssembly may compile, nothing may `eval`, no `blob:` script),
//   no inline script, no plugins, no framing; connections to the app and any web origin, because
//   a meta policy is fixed when the page loads and people configure their model servers after that.
// - connectPolicy(origins), a second meta policy the page adds at start-up with the origins
//   configured then. The browser enforces every policy, so connections are limited to the app
//   and those origins; a server configured later needs a reload (the page says so).
// Workers do not get the page's policies: each takes its own from its script's response headers,
// so the server sends worker scripts workerPolicy(name) instead (policyHeaderFor).

export const BASE_DIRECTIVES: Record<string, string> = {
  'default-src': "'self'",
  'script-src': "'self' 'wasm-unsafe-eval'",
  'worker-src': "'self'",
  'connect-src': "'self' https: http:",
  // Monaco adds <style> elements at run time.
  'style-src': "'self' 'unsafe-inline'",
  'img-src': "'self' data: blob:",
  'font-src': "'self' data:",
  'object-src': "'none'",
  'base-uri': "'none'",
  'form-action': "'none'",
  'frame-src': "'none'",
  'manifest-src': "'self'",
};

const serialize = (d: Record<string, string>) =>
  Object.entries(d)
    .map(([k, v]) => `${k} ${v}`)
    .join('; ');

/** For the meta tag (frame-ancestors is ignored there). */
export const BASE_POLICY = serialize(BASE_DIRECTIVES);

/** For HTTP headers, which can also forbid framing the page. */
export const BASE_POLICY_HEADER = serialize({ ...BASE_DIRECTIVES, 'frame-ancestors': "'none'" });

export const REFERRER_POLICY = 'no-referrer';

/** Where the embedding model comes from when the person allows the hub (with its CDN). */
export const MODEL_HUB_ORIGINS = ['https://huggingface.co', 'https://*.huggingface.co', 'https://*.hf.co'];
/** Where in-browser (WebLLM) models and their compiled libraries come from. */
export const WEBLLM_ORIGINS = [...MODEL_HUB_ORIGINS, 'https://raw.githubusercontent.com'];

/** A source expression for `origin` (scheme://host[:port]), or null when it is not one. */
function sourceOf(origin: string): string | null {
  if (/^https:\/\/\*\.[a-z0-9.-]+$/i.test(origin)) return origin;
  try {
    const u = new URL(origin);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
}

/** The sources of a connect-src that allows the app and exactly these origins. */
function connectSources(origins: readonly string[]): string {
  const sources = new Set(origins.map(sourceOf).filter((s): s is string => s !== null));
  return ["'self'", ...sources].join(' ');
}

/** The narrowing policy: the app and exactly these origins. */
export function connectPolicy(origins: readonly string[]): string {
  return `connect-src ${connectSources(origins)}`;
}

/** Would `connectPolicy(origins)` let the page fetch `url`? (Same rules as the browser's, for origins.) */
export function connectAllowed(url: string, origins: readonly string[], self: string): boolean {
  let u: URL;
  try {
    u = new URL(url, self);
  } catch {
    return false;
  }
  if (u.origin === new URL(self).origin) return true;
  return origins.some((o) => {
    const s = sourceOf(o);
    if (!s) return false;
    if (s.includes('*.')) {
      const [scheme, host] = s.split('://*.');
      return u.protocol === `${scheme}:` && u.hostname.endsWith(`.${host}`);
    }
    return u.origin === s;
  });
}

/** Where each worker may connect besides the app: the embedding model's hub; no worker talks to a model server. */
const WORKER_CONNECT: Readonly<Record<string, readonly string[]>> = { 'embed.worker': MODEL_HUB_ORIGINS };

/** A worker script's own policy (`name` as its file is named, `db.worker`): the page's rules for scripts, its own connections. */
export function workerPolicy(name: string): string {
  return serialize({
    'default-src': "'self'",
    'script-src': BASE_DIRECTIVES['script-src'],
    'worker-src': "'self'",
    'connect-src': connectSources(WORKER_CONNECT[name] ?? []),
    'object-src': "'none'",
    'base-uri': "'none'",
  });
}

/** A built worker entry: Vite names it `<name>.worker-<hash>.js` (src/worker/*.worker.ts, Monaco's editor.worker). */
const WORKER_SCRIPT = /\/([\w-]+\.worker)-[\w-]+\.js$/;

/** The Content-Security-Policy header for a path of the built app: a worker's own, else the page's. */
export function policyHeaderFor(pathname: string): string {
  const worker = WORKER_SCRIPT.exec(pathname.split(/[?#]/)[0]);
  return worker ? workerPolicy(worker[1]) : BASE_POLICY_HEADER;
}
