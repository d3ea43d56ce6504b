// The link `dowser serve` prints and the page opens (issue 36): the page's address with, in the
// fragment (never sent to a server, never in a Referer), where serve listens and a one-time token.
// Only a loopback address is accepted: serve listens on 127.0.0.1, and a link must not be able
// to point the page at some other machine that would then receive the person's questions.

export interface ServeLink {
  /** serve's origin, `http://127.0.0.1:PORT` (or localhost / [::1]). */
  origin: string;
  token: string;
}

const TOKEN = /^[A-Za-z0-9_-]{20,200}$/;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** serve's origin if `url` is an http URL on this machine's loopback, else null. */
export function loopbackOrigin(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' || !LOOPBACK_HOSTS.has(u.hostname) || u.username || u.password) return null;
  return u.origin;
}

export function formatServeLink(pageUrl: string, link: ServeLink): string {
  const page = new URL(pageUrl);
  page.hash = `serve=${encodeURIComponent(link.origin)}&token=${link.token}`;
  return page.href;
}

/**
 * The serve link in a page address's fragment (`#serve=…&token=…`): the link, an error to show
 * (a fragment that names serve but cannot be used), or null when it names none.
 */
export function parseServeLink(hash: string): { link: ServeLink } | { error: string } | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const serve = params.get('serve');
  if (serve === null) return null;
  const origin = loopbackOrigin(serve);
  if (!origin)
    return {
      error: `This link names a database server at "${serve.slice(0, 200)}", but the page connects only to dowser serve on this machine (http://127.0.0.1:PORT).`,
    };
  const token = params.get('token') ?? '';
  if (!TOKEN.test(token))
    return { error: 'This dowser serve link has no valid token: copy the whole link serve printed.' };
  return { link: { origin, token } };
}
