// Database data inside prompt text carries invisible marks, put there by the one function that
// quotes data for the model (tools/quote-data.ts): a cell value between VALUE_OPEN and
// VALUE_CLOSE, a row preview line between ROW_OPEN and ROW_CLOSE. The privacy gate (disclose.ts),
// the only road from the agent to a model, reads the marks to keep, reduce or drop the data, and
// removes them. The marks are private-use characters that data can never hold raw inside a value
// (jsonData writes them as \uE000… escapes); the display functions (format/visible.ts) drop them.

export const VALUE_OPEN = '\uE000';
export const VALUE_CLOSE = '\uE001';
export const ROW_OPEN = '\uE002';
export const ROW_CLOSE = '\uE003';

/** The mark characters, for escaping them inside data. */
export const MARKS = /[\uE000-\uE003]/g;
export const HAS_MARK = /[\uE000-\uE003]/;

export const markValue = (text: string): string => VALUE_OPEN + text + VALUE_CLOSE;

export const markRow = (line: string): string => ROW_OPEN + line + ROW_CLOSE;

/** `text` without marks: what a person is shown, and what the model gets at the full level. */
export function unmark(text: string): string {
  return text.replace(MARKS, '');
}
