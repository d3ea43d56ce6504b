// BIRD column descriptions as one line of text per column, for tools that take plain strings.

import type { DescriptionMap } from './types';

const words = (s: string) => s.toLowerCase().replace(/[\s_]+/g, ' ').trim();

/**
 * `table -> column -> text` with lower-case keys (BIRD file names and schema names differ in
 * case), the text being the spelled-out name (when it says more than the column name), the
 * description and the value description, joined with "; ".
 */
export function descriptionTexts(map: DescriptionMap): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  for (const [table, columns] of map) {
    const t = out.get(table.toLowerCase()) ?? new Map<string, string>();
    for (const [column, d] of columns) {
      const expanded = d.expandedName && words(d.expandedName) !== words(column) ? d.expandedName : '';
      const text = [expanded, d.description, d.valueDescription].map((s) => s.replace(/\s+/g, ' ').trim()).filter(Boolean).join('; ');
      if (text) t.set(column.toLowerCase(), text);
    }
    out.set(table.toLowerCase(), t);
  }
  return out;
}
