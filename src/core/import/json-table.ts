// A JSON or JSON Lines file as a table (issue 26). An array of objects, or one object per line:
// the records' keys name the columns. A top-level object (not an array) is keyed data — people by
// name, counts by day — so its keys become cells of a `key` column, and its values rows (the inner
// objects' keys as columns, a scalar in `value`): keys that are data then get the value marks
// every cell gets (issue 35). Keys are read as the record's own, never through Object.prototype
// (issue 35, item 9: a record without `constructor` failed the import, one without `__proto__`
// got "{}").

import type { SqlValue } from '../types';
import type { ImportType } from './column-types';
import { columnNamesOf } from './table-name';

export interface JsonTable {
  columns: Array<{ name: string; type: ImportType }>;
  rows: SqlValue[][];
  problems: string[];
}

/** Problems listed one by one; past this they are counted. */
const LISTED = 20;

type JsonObject = Record<string, unknown>;

const isObject = (v: unknown): v is JsonObject => !!v && typeof v === 'object' && !Array.isArray(v);

function cell(v: unknown): SqlValue {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string') return v;
  return JSON.stringify(v);
}

/** Each key in first-seen order (a Set: no key is a property of anything). */
function keysOf(objects: readonly JsonObject[]): string[] {
  const keys = new Set<string>();
  for (const o of objects) for (const k of Object.keys(o)) keys.add(k);
  return [...keys];
}

const own = (o: JsonObject, k: string): unknown => (Object.hasOwn(o, k) ? o[k] : undefined);

function typed(names: readonly string[], rows: SqlValue[][], problems: string[]): JsonTable {
  const types = names.map((_, c): ImportType => {
    const present = rows.map((r) => r[c]).filter((v) => v !== null);
    if (present.length && present.every((v) => typeof v === 'number' && Number.isInteger(v))) return 'INTEGER';
    if (present.length && present.every((v) => typeof v === 'number')) return 'REAL';
    return 'TEXT';
  });
  // A number in a TEXT column as JSON wrote it ("3"): bound as a double, SQLite would store "3.0".
  for (const r of rows)
    for (let c = 0; c < r.length; c++) if (types[c] === 'TEXT' && typeof r[c] === 'number') r[c] = String(r[c]);
  return { columns: names.map((name, c) => ({ name, type: types[c] })), rows, problems };
}

function parseWhole(fileName: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new Error(`${fileName} is not valid JSON: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
}

/** A top-level object as rows: its keys in a `key` column, inner objects' keys as columns, scalars in `value`. */
function keyedTable(top: JsonObject): JsonTable {
  const entries = Object.entries(top);
  const inner = keysOf(entries.map(([, v]) => v).filter(isObject));
  const scalars = entries.some(([, v]) => !isObject(v));
  const names = columnNamesOf(['key', ...inner, ...(scalars ? ['value'] : [])]);
  const rows = entries.map(([k, v]): SqlValue[] => [
    k,
    ...inner.map((i) => (isObject(v) ? cell(own(v, i)) : null)),
    ...(scalars ? [isObject(v) ? null : cell(v)] : []),
  ]);
  return typed(names, rows, []);
}

export function parseJsonTable(fileName: string, text: string): JsonTable {
  const problems: string[] = [];
  const trimmed = text.trim();
  let records: unknown[];
  if (trimmed.startsWith('[')) {
    const all = parseWhole(fileName, trimmed);
    records = Array.isArray(all) ? all : [all];
  } else {
    // A .json file holding one object is keyed data; JSON Lines (or a .json of them) a record a line.
    if (/\.json$/i.test(fileName) && trimmed.startsWith('{')) {
      let top: unknown;
      try {
        top = JSON.parse(trimmed);
      } catch {
        top = undefined;
      }
      if (isObject(top)) return keyedTable(top);
    }
    records = [];
    trimmed.split(/\r?\n/).forEach((line, i) => {
      if (!line.trim()) return;
      try {
        records.push(JSON.parse(line));
      } catch {
        if (problems.length < LISTED) problems.push(`line ${i + 1}: not valid JSON (kept as text in a column "value")`);
        records.push({ value: line });
      }
    });
  }
  const objects = records.map((r, i): JsonObject => {
    if (isObject(r)) return r;
    if (problems.length < LISTED) problems.push(`record ${i + 1}: not an object (kept in a column "value")`);
    return { value: r };
  });
  const keys = keysOf(objects);
  const rows = objects.map((o) => keys.map((k) => cell(own(o, k))));
  return typed(columnNamesOf(keys), rows, problems);
}
