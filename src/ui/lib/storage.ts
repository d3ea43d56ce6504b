// Web Storage that may be missing (private mode, tests without a DOM) or full: reads return
// null and writes are dropped, so settings stay in memory instead of breaking the page.

export type StorageKind = 'local' | 'session';

function area(kind: StorageKind): Storage | undefined {
  try {
    return kind === 'local' ? globalThis.localStorage : globalThis.sessionStorage;
  } catch {
    return undefined;
  }
}

export function readJson(kind: StorageKind, key: string): unknown {
  try {
    const text = area(kind)?.getItem(key);
    return text == null ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}

export function readText(kind: StorageKind, key: string): string | undefined {
  try {
    return area(kind)?.getItem(key) ?? undefined;
  } catch {
    return undefined;
  }
}

export function writeJson(kind: StorageKind, key: string, value: unknown): void {
  try {
    area(kind)?.setItem(key, JSON.stringify(value));
  } catch {
    /* kept in memory only */
  }
}

export function remove(kind: StorageKind, key: string): void {
  try {
    area(kind)?.removeItem(key);
  } catch {
    /* nothing stored */
  }
}
