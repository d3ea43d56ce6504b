// What the open report says of one imported table file (issue 35): how its first row was read and
// why, its encoding, the table it became (and why that name, when it is not the file's own), and
// the rows and values that did not fit. The engine adds these to its report; the page shows them
// as notices, the CLI prints them (with its own way to change each: --header, --encoding).

import type { OpenIssue } from '../types';
import { encodingSentence, headerSentence, type EncodingUsed, type ImportedFile } from './imported-file';
import type { TablePlan } from './table-file';

/**
 * Who chose, in the sentences the page shows (the CLI prints its own, naming its flags): the page
 * imports a file as its import dialog showed it, the first row as set there.
 */
const CHOSEN = 'as set in the import dialog';

export function importReport(
  file: string,
  table: string,
  plan: TablePlan,
  encoding: EncodingUsed,
  rows: number,
): { issues: OpenIssue[]; imported: ImportedFile } {
  const columns = plan.columns.map((c) => c.name);
  const h = plan.headerEvidence;
  const header = h ? { taken: plan.header, choice: h.choice, verdict: h.verdict, reason: h.reason } : undefined;
  const issues: OpenIssue[] = [];
  if (header)
    issues.push({
      level: 'info',
      code: 'import_header',
      message: `${file}: ${headerSentence(header, columns, CHOSEN)}`,
    });
  issues.push({
    level: encoding.replaced > 0 ? 'warning' : 'info',
    code: 'import_encoding',
    message: `${file}: ${encodingSentence(encoding, CHOSEN)}`,
  });
  const kinds = plan.columns.map((c) => `${c.name} ${c.type}`).join(', ');
  issues.push({
    level: 'info',
    code: 'imported',
    message: `${file} became table ${table}${plan.tableNote ? ` (${plan.tableNote})` : ''}: ${rows} rows; columns ${kinds}.`,
  });
  for (const p of plan.problems) issues.push({ level: 'warning', code: 'import_row', message: `${file}, ${p}` });
  return { issues, imported: { file, table, columns, ...(header ? { header } : {}), encoding } };
}
