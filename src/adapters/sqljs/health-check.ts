// Findings made after a file opens: integrity, emptiness, unreadable virtual tables.

import { QUICK_CHECK_SKIPPED } from '../../core/db/file-check';
import type { SqlExecutor } from '../../core/executor';
import { quoteIdent } from '../../core/sql/quote';
import { virtualModule } from '../../core/schema/introspect';
import type { OpenIssue } from '../../core/types';

/** `integrity: false` leaves out PRAGMA quick_check (a very large file read in place) and says so. */
export async function healthCheck(
  exec: SqlExecutor,
  options: { integrity?: boolean } = {},
): Promise<{ quickCheck: string[]; issues: OpenIssue[] }> {
  const issues: OpenIssue[] = [];
  let quickCheck: string[];
  if (options.integrity === false) {
    quickCheck = [QUICK_CHECK_SKIPPED];
    issues.push({
      level: 'info',
      code: 'integrity_not_checked',
      message:
        'The integrity check was left out: it reads the whole file, and the file is large. Run PRAGMA quick_check in the SQL tab to check it.',
    });
  } else
    try {
      const r = await exec.query('PRAGMA quick_check(20)', { maxRows: 20 });
      quickCheck = r.rows.map((row) => String(row[0]));
    } catch (e) {
      quickCheck = [e instanceof Error ? e.message : String(e)];
    }
  if (quickCheck[0] !== QUICK_CHECK_SKIPPED && (quickCheck.length !== 1 || quickCheck[0] !== 'ok')) {
    issues.push({
      level: 'error',
      code: 'quick_check_failed',
      message: `The integrity check found problems, so some rows may be missing or queries may fail: ${quickCheck.slice(0, 3).join('; ')}${quickCheck.length > 3 ? ` (and ${quickCheck.length - 3} more)` : ''}`,
    });
  }
  const objects = await exec.query(
    `SELECT type, name, sql FROM sqlite_schema WHERE type IN ('table','view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'`,
    { maxRows: 100_000 },
  );
  if (!objects.rows.some((r) => r[0] === 'table')) {
    issues.push({
      level: 'warning',
      code: 'no_tables',
      message: objects.rows.length
        ? 'This database has views but no tables.'
        : 'This database has no tables: there is nothing to query yet.',
    });
  }
  const missing: string[] = [];
  for (const [, name, sql] of objects.rows) {
    if (!/^\s*CREATE\s+VIRTUAL\s+TABLE/i.test(String(sql ?? ''))) continue;
    try {
      await exec.query(`SELECT * FROM ${quoteIdent(String(name))} LIMIT 0`);
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      if (/no such module/i.test(msg)) missing.push(`${name} (module ${virtualModule(String(sql)) ?? '?'})`);
    }
  }
  if (missing.length) {
    issues.push({
      level: 'warning',
      code: 'virtual_table_module_missing',
      message: `These virtual tables use modules this browser's SQLite lacks and cannot be read: ${missing.join(', ')}. All other tables work.`,
    });
  }
  return { quickCheck, issues };
}
