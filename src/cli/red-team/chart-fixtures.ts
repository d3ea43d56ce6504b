// Fixtures for the red team's chart cases (issue 35, items 11 and 12): labels holding characters
// XML 1.0 cannot carry, results of hundreds of thousands of rows, and a strict XML reader for the
// files written from them.

import initSqlJs from 'sql.js';

/**
 * Category labels a database can hold and XML cannot: a C0 control, a vertical tab, a
 * non-character, and (where text comes from JSON or a model rather than UTF-8) a lone surrogate.
 */
export const XML_FORBIDDEN_LABELS = ['soh\u0001', 'vt\u000B', 'nonchar\uFFFF', 'lone\uD800'] as const;

/** How the page shows each character above (core/format/visible.ts), and so how chart files write it. */
export const SHOWN_LABELS = ['soh⟨U+0001⟩', 'vt⟨U+000B⟩', 'nonchar⟨U+FFFF⟩', 'lone⟨U+D800⟩'] as const;

/**
 * A `labels (label TEXT, n INTEGER)` table with the labels SQLite can store (UTF-8 holds no lone
 * surrogate), made by SQL's char() so the characters are in the file as bytes.
 */
export const LABELS_SQL = `CREATE TABLE labels (label TEXT, n INTEGER);
INSERT INTO labels VALUES ('soh' || char(1), 3), ('vt' || char(11), 5), ('nonchar' || char(65535), 2);`;

/**
 * A database of `rows` rows `points (x REAL, y REAL, grp TEXT)`, made in SQL (a recursive CTE)
 * so a million rows cost no JavaScript arrays here.
 */
export async function manyRowsDb(rows: number): Promise<Uint8Array> {
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  db.run(`CREATE TABLE points (x REAL, y REAL, grp TEXT);
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${rows})
    INSERT INTO points SELECT i * 0.5, (i * 7919) % 1000, 'g' || (i % 7) FROM n;`);
  const bytes = db.export();
  db.close();
  return bytes;
}

// jsdom ships no types; its DOMParser reads image/svg+xml with a strict XML parser (saxes).
const { JSDOM } = (await import('jsdom' as string)) as {
  JSDOM: new (html: string) => { window: typeof globalThis };
};

/** A window of jsdom's: a document for Plot to draw in, and its XML parser. */
export function jsdomWindow(): typeof globalThis {
  return new JSDOM('<!doctype html><html><body></body></html>').window;
}

/** `text` read as XML the way a strict viewer reads an .svg file: null when it is not well-formed. */
export function parseSvgStrictly(text: string): Document | null {
  const doc = new (jsdomWindow().DOMParser)().parseFromString(text, 'image/svg+xml');
  return doc.querySelector('parsererror') ? null : doc;
}
