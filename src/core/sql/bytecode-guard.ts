// Second read-only gate: inspect the compiled program (EXPLAIN output) for anything that would
// write. A statement could slip past the keyword gate only through a lexer gap; the bytecode
// cannot lie. Ephemeral tables (sorting, recursive CTEs) write only to temporary cursors, which
// never take a write transaction, so `Insert` on them is fine.
// Limit: SQLite applies many PRAGMA settings (query_only, writable_schema, ...) while compiling
// the statement, so no bytecode shows them and compiling EXPLAIN already applies them. Pragmas
// are the keyword gate's job alone (statements.ts), which runs before anything is compiled; so is
// their table-valued form (`pragma_optimize(…)` compiles to a virtual table that names nothing).

export interface BytecodeRow {
  opcode: string;
  p1: number;
  p2: number;
  /** Optional for callers that do not read it; JournalMode uses it to tell a query from a change. */
  p3?: number;
  p4: string | null;
}

/** P3 of OP_JournalMode when the statement only asks for the mode (PAGER_JOURNALMODE_QUERY). */
const JOURNAL_MODE_QUERY = -1;

const WRITE_OPCODES = new Set([
  'Vacuum',
  'ParseSchema',
  'SetCookie',
  'CreateBtree',
  'Destroy',
  'DropTable',
  'DropIndex',
  'DropTrigger',
  'VCreate',
  'VDestroy',
  'VUpdate',
  'VRename',
  'IncrVacuum',
  'JournalMode',
]);

/** Returns why the program writes, or null when it only reads. */
export function findWrite(rows: BytecodeRow[]): string | null {
  for (const r of rows) {
    if (r.opcode === 'Transaction' && r.p2 !== 0) return 'it opens a write transaction';
    if (r.opcode === 'OpenWrite' && r.p1 >= 0) {
      // OpenWrite on the temp schema (p3=1) is still a write to a database; refuse all.
      return 'it opens a table for writing';
    }
    // Plain `PRAGMA journal_mode` (allowed by the keyword gate) compiles to JournalMode too.
    if (r.opcode === 'JournalMode' && r.p3 === JOURNAL_MODE_QUERY) continue;
    if (WRITE_OPCODES.has(r.opcode)) return `it runs ${r.opcode}`;
    if ((r.opcode === 'Function' || r.opcode === 'PureFunc') && r.p4 && /sqlite_(attach|detach)/i.test(r.p4)) {
      return 'it attaches or detaches a database';
    }
  }
  return null;
}
