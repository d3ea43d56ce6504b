// The origin a URL's requests go to: what a key is bound to (the page's settings, the CLI's
// key variables) and what the connect policy names.

/** `scheme://host[:port]` of an http(s) URL, else null. */
export function originOf(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
}
