// The database as Auto's first request carries it (issue 22): every column with its type, keys
// (declared and inferred), and what the statistics say its stored values look like — the few
// values of a categorical column, a range, a date format, a few examples — plus the SQLite facts a
// query must respect (numbers stored as text, month names that sort alphabetically, dates SQLite's
// date functions cannot read). All of it comes from the column statistics the toolbox already has
// (schema/stats.ts, retrieval/value-columns.ts), never from a list written for a benchmark.
//
// Values are cell values: each is quoted and marked (tools/quote-data.ts) so the privacy gate
// still decides, and those the level would withhold are left out here rather than sent as
// placeholders (schema: no values at all; matches: only values made of the question's words).

import { meetCondition, type KeyRepair } from '../schema/key-health';
import { dialectOf } from '../dialect/registry';
import type { Dialect } from '../dialect/types';
import { valueAllowed, type PrivacyPolicy } from '../privacy/disclose';
import type { JoinEdge } from '../retrieval/types';
import { jsonData, quoteData } from '../tools/quote-data';
import type { ColumnInfo, ColumnStats, Schema, SqlValue, TableInfo } from '../types';
import { estimateTokens, promptIdent } from './schema-text';

/** What the toolbox knows beyond the schema: per-column statistics, the keys the data implies, descriptions. */
export interface Grounding {
  stats: ColumnStats[];
  inferredKeys: JoinEdge[];
  /** Column descriptions (imported, or the person's notes), where there are any. */
  descriptions?: Array<{ table: string; column: string; text: string }>;
  /**
   * Declared keys none of whose values is in the referenced column (" APG" against "APG"), by the
   * referencing column, with a few values of each side already quoted as data (schema/key-health.ts).
   */
  unmatchedKeys?: Array<{
    table: string;
    column: string;
    childExamples: string[];
    parentExamples: string[];
    /** The values meet after TRIM (or lower and TRIM) of both sides (schema/key-health.ts). */
    meetsAfter?: KeyRepair;
  }>;
  /**
   * Set while the indexes are still being built (issue 26): the statistics come from at most
   * this many first rows of each table, and inferred keys are not known yet.
   */
  sampledRows?: number;
}

/**
 * How much a column line carries. `full`: stored values, ranges, examples. `compact`, for a
 * schema too large in full: the few values of categorical columns (the ones a filter names as
 * stored) and the storage facts, no examples or ranges, and views by their columns alone.
 */
export type GroundingDetail = 'full' | 'compact';

/**
 * Tables shown in full detail inside a compact schema: those a conversation already reads and
 * those holding the values the question names (issue 37, item 6), so a follow-up keeps the stored
 * values it filters on while the rest stays compact. Names as the schema spells them.
 */
export type FullTables = ReadonlySet<string>;

/** Descriptions are cut to this many characters: a line each, not a page. */
const DESCRIPTION_CHARS = 120;

/** A categorical column with at most this many values lists them all; with more, a few and the count. */
const CATEGORIES_ALL = 6;
const EXAMPLES_SHOWN = 3;
const VALUE_CHARS = 24;
/** Above this average length a text column is prose: one short example says what it holds. */
const PROSE_LENGTH = 60;

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const isNameIn = (names: string[]) => (v: string) => {
  const t = v.trim().toLowerCase().replace(/\.$/, '');
  return t.length >= 3 && names.some((n) => n === t || n.slice(0, 3) === t || (t.length >= 4 && n.startsWith(t)));
};
const isMonthName = isNameIn(MONTHS);
const isDayName = isNameIn(DAYS);

const NUMBER_TEXT = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/;
const ISO_DAY = /^\d{4}-\d{2}-\d{2}/;
// 03/17/2018, 17.03.2018, 3-17-18: read as dates by people, as text by SQLite's date functions.
const OTHER_DATE = /^\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}\b/;
// "November 14, 2008", "November14,2008", "14 Nov 2008", "5 May": a date in words, text to SQL too.
const MONTH = '(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\\.?';
const WORDED_DATE = new RegExp(
  `^(${MONTH}\\s*\\d{1,2}(st|nd|rd|th)?(,?\\s*\\d{4})?|\\d{1,2}(st|nd|rd|th)?\\s*${MONTH}(,?\\s*\\d{4})?)$`,
  'i',
);
// "22.7%", "$1,200", "1,234,567", "12 kg": numbers to people, text to SQL (not "numbers as text":
// CAST reads those whole, these only up to the first sign or separator).
const DRESSED_NUMBER = /^\s*[-+]?[$€£¥]?\s*(\d{1,3}(,\d{3})+|\d+)(\.\d+)?\s*(%|[a-zA-Z]{1,3})?\s*$/;
/**
 * One-digit codes stored as text ("0"/"1"/"2" for a gender, a status): what each means is not in
 * the data, so a query must assume it (letters such as M/F or Y/N say it themselves).
 */
const DIGIT_CODE = /^\d$/;
const CODES_FACT = 'codes whose meaning is not stored';
const MAX_CODES = 4;

/** `2019-03-04 10:00:00` -> `YYYY-MM-DD HH:MM:SS`: the stored shape without the value. */
export function dateShape(value: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:([ T])(\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?)?/.exec(value);
  if (!m) return null;
  let shape = 'YYYY-MM-DD';
  if (m[4]) shape += `${m[4]}HH:MM${m[7] ? ':SS' : ''}${m[8] ? '.SSS' : ''}`;
  return shape;
}

/** The distinct texts the statistics hold (a value in the categories, the samples and the range counts once). */
const storedTexts = (st: ColumnStats): string[] => [
  ...new Set(
    [...(st.categories?.map((c) => c.value) ?? []), ...st.samples, st.min, st.max].filter(
      (v): v is string => typeof v === 'string' && v.trim() !== '',
    ),
  ),
];

/** Text that reads as numbers or codes to people: numbers with signs or units, digit codes without a meaning. */
function lookalikeFacts(st: ColumnStats, texts: readonly string[], numeric: number): string[] {
  const facts: string[] = [];
  const dressed = texts.filter(
    (v) => DRESSED_NUMBER.test(v) && !NUMBER_TEXT.test(v) && !WORDED_DATE.test(v.trim()),
  ).length;
  if (dressed > 0 && dressed + numeric >= 0.8 * texts.length) facts.push('numbers with signs or units as text');
  const codes = st.categories?.map((k) => k.value) ?? [];
  const fewCodes = codes.length >= 2 && codes.length <= MAX_CODES && st.distinctCount <= MAX_CODES;
  if (fewCodes && codes.every((v) => typeof v === 'string' && DIGIT_CODE.test(v))) facts.push(CODES_FACT);
  return facts;
}

/**
 * Facts about how a column stores its values that change how SQL must treat them, in a few words
 * each; derived from the statistics, never values themselves (they stay at every privacy level).
 */
export function storageFacts(c: ColumnInfo, st: ColumnStats, options: { rangeShown: boolean }): string[] {
  const facts: string[] = [];
  const classes = Object.entries(st.storageClasses).filter(([k, n]) => k !== 'null' && (n ?? 0) > 0);
  const texts = storedTexts(st);
  const onlyText = classes.length === 1 && classes[0][0] === 'text' && texts.length > 0;
  if (classes.length > 1) facts.push(`mixed storage: ${classes.map(([k]) => k).join(' and ')}`);
  // Most, not all: a column of numbers often holds a marker for missing ones ("null", "-").
  const numeric = texts.filter((v) => NUMBER_TEXT.test(v)).length;
  if (onlyText && numeric >= 0.8 * texts.length) {
    facts.push('numbers as text');
    // "null", "-", "n/a" beside the numbers: CAST reads them as 0, so an average or a minimum counts them.
    if (numeric < texts.length) facts.push('words among the numbers');
  }
  if (onlyText && texts.every(isMonthName)) facts.push('month names as text');
  else if (onlyText && texts.every(isDayName)) facts.push('day names as text');
  if (st.looksLikeDate && typeof st.min === 'string') {
    // The range shows the stored form; without it (privacy), the form alone.
    const shape = dateShape(st.min);
    if (shape && !options.rangeShown) facts.push(`dates as text ${shape}`);
  } else if (onlyText && texts.every((v) => (OTHER_DATE.test(v) || WORDED_DATE.test(v.trim())) && !ISO_DAY.test(v)))
    facts.push('dates not in ISO form');
  if (onlyText) facts.push(...lookalikeFacts(st, texts, numeric));
  if (st.rowsScanned > 0 && st.nullCount === st.rowsScanned) facts.push('all NULL');
  // A declared number type whose values are words ("INT" holding names) is worth a word too.
  const dateType = st.looksLikeDate || /date|time/i.test(c.declaredType);
  if (c.affinity !== 'TEXT' && c.affinity !== 'BLOB' && !dateType && onlyText && numeric < 0.8 * texts.length)
    facts.push('holds text');
  return facts;
}

/** What a value past VALUE_CHARS is shown as: its start quoted, then how long it is, outside the quotes. */
export const CUT_NOTE =
  'a quoted value followed by "… (N chars)" is only its start: compare it with LIKE on that start (\'start%\'), not with =';

/**
 * A stored value as a column line shows it: whole up to VALUE_CHARS, else its start in quotes and
 * its length after them, so a cut value is never read as stored (`"The Effects of Climate C"… (29 chars)`).
 */
function shownValue(v: SqlValue, onCut: () => void): string {
  if (typeof v !== 'string' || [...v].length <= VALUE_CHARS) return quoteData(v, Infinity);
  onCut();
  return `${quoteData([...v].slice(0, VALUE_CHARS).join(''), Infinity)}… (${[...v].length} chars)`;
}

/** The values a column shows, as the privacy level allows: categories, a range, or examples. */
function valueFacts(st: ColumnStats, policy: PrivacyPolicy, onCut: () => void): string | null {
  if (policy.level === 'schema' || st.rowsScanned === 0 || st.nullCount === st.rowsScanned) return null;
  const allowed = (v: SqlValue) => v !== null && !(v instanceof Uint8Array) && valueAllowed(String(v), policy);
  const fmt = (v: SqlValue) => shownValue(v, onCut);
  if (st.categories?.length) {
    const shown = st.categories.map((c) => c.value).filter(allowed);
    if (policy.level === 'matches')
      return shown.length ? `has ${shown.slice(0, CATEGORIES_ALL).map(fmt).join(', ')}` : null;
    // Few values: all of them, most frequent first, so the model writes them as stored. Many:
    // enough to show their form; the values the question names come from the linker.
    if (st.distinctCount <= CATEGORIES_ALL) return shown.map(fmt).join(', ');
    return `${shown.slice(0, EXAMPLES_SHOWN).map(fmt).join(', ')}, … ${st.distinctCount} distinct`;
  }
  const isNumber = (v: SqlValue) => typeof v === 'number' || typeof v === 'bigint';
  const ranged = st.looksLikeDate || (isNumber(st.min) && isNumber(st.max));
  if (ranged && st.min !== null && st.max !== null) {
    if (!allowed(st.min) || !allowed(st.max)) return null;
    return st.min === st.max ? fmt(st.min) : `${fmt(st.min)} to ${fmt(st.max)}`;
  }
  // Every value distinct, and few: the samples are all of them.
  if (st.distinctCount <= CATEGORIES_ALL && st.samples.length === st.distinctCount && policy.level === 'full')
    return st.samples.map(fmt).join(', ');
  const prose = (st.avgLength ?? 0) > PROSE_LENGTH;
  const examples = st.samples.filter(allowed).slice(0, prose ? 1 : EXAMPLES_SHOWN - 1);
  if (!examples.length) return null;
  return `${policy.level === 'matches' ? 'has' : 'e.g.'} ${examples.map(fmt).join(', ')}`;
}

const SHORT_TYPE: Record<string, string> = { INTEGER: 'int', TEXT: 'text', REAL: 'real', NUMERIC: 'num', BLOB: 'blob' };

function typeOf(c: ColumnInfo): string {
  const d = c.declaredType;
  if (!d.trim()) return 'any';
  if (/datetime|timestamp/i.test(d)) return 'datetime';
  if (/date/i.test(d)) return 'date';
  if (/time/i.test(d)) return 'time';
  if (/bool/i.test(d)) return 'bool';
  return SHORT_TYPE[c.affinity] ?? 'any';
}

const ref = (table: string, column: string) => `${promptIdent(table)}.${promptIdent(column)}`;

/** A key column's target as the line writes it, and whether the referenced column holds numbers. */
interface KeyTarget {
  ref: string;
  numeric: boolean;
}

/** Single-column keys of the table's columns, declared first, then those the data implies. */
function keyTargets(t: TableInfo, inferred: readonly JoinEdge[], schema: Schema): Map<string, KeyTarget> {
  const target = (table: string, column: string): KeyTarget => {
    const c = schema.tables.find((x) => x.name === table)?.columns.find((x) => x.name === column);
    const numeric = !!c && (c.affinity === 'INTEGER' || c.affinity === 'REAL' || c.affinity === 'NUMERIC');
    return { ref: ref(table, column), numeric };
  };
  const out = new Map<string, KeyTarget>();
  for (const fk of t.foreignKeys)
    if (fk.from.length === 1 && !out.has(fk.from[0])) out.set(fk.from[0], target(fk.refTable, fk.to[0]));
  for (const e of inferred)
    if (e.fromTable === t.name && e.fromColumns.length === 1 && !out.has(e.fromColumns[0]))
      out.set(e.fromColumns[0], target(e.toTable, e.toColumns[0]));
  return out;
}

/** A column of digit codes whose meaning the data does not store, and its codes. */
export interface CodeColumn {
  table: string;
  column: string;
  codes: string[];
}

/**
 * The columns whose values are codes without a stored meaning (`gender text: "0", "1"`) — the same
 * columns the grounding marks with that fact; keys are left out (their meaning is the row they name).
 */
export function codeColumns(schema: Schema, grounding: Grounding | null): CodeColumn[] {
  const stats = new Map((grounding?.stats ?? []).map((s) => [`${s.table}\u0000${s.column}`, s]));
  const out: CodeColumn[] = [];
  for (const t of schema.tables) {
    if (t.skipped || t.kind === 'view') continue;
    const keys = keyTargets(t, grounding?.inferredKeys ?? [], schema);
    for (const c of t.columns) {
      const st = stats.get(`${t.name}\u0000${c.name}`);
      const key = keys.has(c.name) || (t.primaryKey.length === 1 && t.primaryKey[0] === c.name);
      if (!st || key || !storageFacts(c, st, { rangeShown: true }).includes(CODES_FACT)) continue;
      out.push({ table: t.name, column: c.name, codes: (st.categories ?? []).map((k) => String(k.value)) });
    }
  }
  return out;
}

/** A key of numbers stored as text whose referenced column holds numbers: the engine's note says how they join. */
const ID_TEXT_FACT = 'ids as text beside number keys';

/** "; they meet as TRIM(a) = TRIM(b)": how a declared key whose values never meet as stored does join. */
function meetsText(how: KeyRepair | undefined, from: string, to: string): string {
  return how ? `; they meet as ${meetCondition(how, from, to)}` : '';
}

/**
 * Whether a column line shows its values: in full, always; compact keeps few-valued columns'
 * values and a date column's range (what "last month" is read against), and no view's.
 */
function showsValues(t: TableInfo, st: ColumnStats, detail: GroundingDetail): boolean {
  if (detail !== 'compact') return true;
  if (t.kind === 'view') return false;
  return Boolean(st.looksLikeDate || (st.categories?.length && st.distinctCount <= CATEGORIES_ALL));
}

function columnLine(
  t: TableInfo,
  c: ColumnInfo,
  keys: Map<string, KeyTarget>,
  st: ColumnStats | undefined,
  policy: PrivacyPolicy,
  detail: GroundingDetail,
  description: string | undefined,
  unmatched: NonNullable<Grounding['unmatchedKeys']>[number] | undefined,
) {
  const head = [promptIdent(c.name), typeOf(c)];
  if (t.primaryKey.length === 1 && t.primaryKey[0] === c.name) head.push('pk');
  const key = keys.get(c.name);
  const target = key?.ref;
  if (target) head.push(`→ ${target}`);
  // A declared key whose values never meet: a plain join on it returns nothing.
  if (target && unmatched)
    head.push(
      policy.level === 'full'
        ? `(but no value matches: here ${unmatched.childExamples.join(', ')}; there ${unmatched.parentExamples.join(', ')}${meetsText(unmatched.meetsAfter, `${promptIdent(t.name)}.${promptIdent(c.name)}`, target)})`
        : '(but no value matches)',
    );
  // Key columns' values are ids: their range tells nothing the keys do not.
  const valued = st && !target && !(t.primaryKey.length === 1 && t.primaryKey[0] === c.name);
  const compact = detail === 'compact';
  let cut = false;
  const values = valued && showsValues(t, st, detail) ? valueFacts(st, policy, () => (cut = true)) : null;
  const facts = (st && !(compact && t.kind === 'view') ? storageFacts(c, st, { rangeShown: values !== null }) : [])
    .filter(
      // A key's values are ids, their meaning the row they name.
      (f) => valued || f !== CODES_FACT,
    )
    // Digits as text against a key of numbers: a join question, not arithmetic (the engine's note).
    .map((f) => (f === 'numbers as text' && key?.numeric ? ID_TEXT_FACT : f));
  const about = description?.trim()
    ? ` — ${jsonData(description.length > DESCRIPTION_CHARS ? description.slice(0, DESCRIPTION_CHARS) + '…' : description)}`
    : '';
  const tail = [values, ...facts].filter(Boolean).join('; ');
  return { text: `  ${head.join(' ')}${tail ? `: ${tail}` : ''}${about}`, facts, cut };
}

const NOTED_COLUMNS = 3;

/** The engine's notes a column's storage facts call for. */
const notesOf = (facts: readonly string[], dialect: Dialect): string[] =>
  dialect.valueNotes.filter(([re]) => facts.some((f) => re.test(f))).map(([, note]) => note);

const listed = (names: readonly string[], most: number): string =>
  names.slice(0, most).join(', ') + (names.length > most ? ', …' : '');

export interface GroundedSchema {
  text: string;
  /** The engine's facts that matter for this database's stored values, one sentence each. */
  notes: string[];
  /** Some column holds dates or times (a prompt then says today's date). */
  hasDates: boolean;
}

/**
 * One header line per table (`orders: 2000 rows`, composite keys after it), then one line per
 * column: `  status text: "delivered", "shipped", "cancelled"`.
 */
export function groundedSchema(
  schema: Schema,
  grounding: Grounding | null,
  policy: PrivacyPolicy,
  detail: GroundingDetail = 'full',
  fullTables?: FullTables,
): GroundedSchema {
  const stats = new Map((grounding?.stats ?? []).map((s) => [`${s.table}\u0000${s.column}`, s]));
  const descriptions = new Map((grounding?.descriptions ?? []).map((d) => [`${d.table}\u0000${d.column}`, d.text]));
  const unmatched = new Map((grounding?.unmatchedKeys ?? []).map((u) => [`${u.table}\u0000${u.column}`, u]));
  const inferred = grounding?.inferredKeys ?? [];
  const lines: string[] = [];
  const notes = new Set<string>();
  let hasDates = false;
  // A note on stored values names the columns it is about (up to three): the model applies it there.
  const noted = new Map<string, string[]>();
  // What each kind of stored value means in this engine's SQL (core/dialect).
  const dialect = dialectOf(schema.dialect);
  for (const t of schema.tables) {
    if (t.skipped) continue;
    const kind = t.kind === 'view' ? ' (view)' : t.kind === 'virtual' ? ' (virtual)' : '';
    const rows =
      t.rowCount === null
        ? ''
        : `: ${t.rowCountEstimated ? 'about ' : ''}${t.rowCount} row${t.rowCount === 1 ? '' : 's'}`;
    const extra: string[] = [];
    if (t.primaryKey.length > 1) extra.push(`primary key (${t.primaryKey.map(promptIdent).join(', ')})`);
    for (const fk of t.foreignKeys)
      if (fk.from.length > 1)
        extra.push(
          `(${fk.from.map(promptIdent).join(', ')}) → ${promptIdent(fk.refTable)}(${fk.to.map(promptIdent).join(', ')})`,
        );
    lines.push(
      `${promptIdent(t.name)}${kind}${rows}${t.error ? ' (unreadable)' : ''}${extra.length ? `; ${extra.join('; ')}` : ''}`,
    );
    const keys = keyTargets(t, inferred, schema);
    const tableDetail = fullTables?.has(t.name) ? 'full' : detail;
    for (const c of t.columns) {
      if (c.hidden) continue;
      const key = `${t.name}\u0000${c.name}`;
      const st = stats.get(key);
      const line = columnLine(t, c, keys, st, policy, tableDetail, descriptions.get(key), unmatched.get(key));
      lines.push(line.text);
      if (line.cut) notes.add(CUT_NOTE);
      for (const note of notesOf(line.facts, dialect))
        noted.set(note, [...(noted.get(note) ?? []), `${promptIdent(t.name)}.${promptIdent(c.name)}`]);
      if (st?.looksLikeDate) {
        hasDates = true;
        notes.add(c.typeClass === 'date' ? (dialect.typedDateNote ?? dialect.dateNote) : dialect.dateNote);
      }
    }
  }
  for (const [note, columns] of noted) notes.add(`${note} (${listed(columns, NOTED_COLUMNS)})`);
  if (grounding?.sampledRows)
    notes.add(
      `the stored values shown come from the first ${grounding.sampledRows} rows of each table (the rest is still being read): other values may be stored`,
    );
  return { text: lines.join('\n'), notes: [...notes], hasDates };
}

/** Estimated tokens of the grounded schema (what Auto's budget is measured on). */
export function groundedSchemaTokens(
  schema: Schema,
  grounding: Grounding | null,
  policy: PrivacyPolicy,
  detail: GroundingDetail = 'full',
  fullTables?: FullTables,
): number {
  return estimateTokens(groundedSchema(schema, grounding, policy, detail, fullTables).text);
}
