// Totals the vitest and Playwright JSON reports into the one line CI reads.
import { existsSync, readFileSync } from 'node:fs';

let passed = 0,
  failed = 0,
  skipped = 0;
const [unitPath, e2ePath] = process.argv.slice(2);

if (unitPath && existsSync(unitPath)) {
  const r = JSON.parse(readFileSync(unitPath, 'utf8'));
  passed += r.numPassedTests ?? 0;
  failed += (r.numFailedTests ?? 0) + (r.numRuntimeErrorTestSuites ?? 0);
  skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
} else {
  failed += 1; // the unit run did not report: count it as a failure rather than hide it
}

function walk(suite) {
  for (const s of suite.suites ?? []) walk(s);
  for (const spec of suite.specs ?? []) {
    for (const t of spec.tests ?? []) {
      if (t.status === 'skipped') skipped++;
      else if (t.status === 'expected' || t.status === 'flaky') passed++;
      else failed++;
    }
  }
}
if (e2ePath && existsSync(e2ePath)) {
  const r = JSON.parse(readFileSync(e2ePath, 'utf8'));
  for (const s of r.suites ?? []) walk(s);
  if ((r.errors ?? []).length) failed += r.errors.length;
} else if (unitPath && existsSync(unitPath)) {
  // Unit tests ran but no browser report: the e2e run never started (check failed first).
  failed += 1;
}

console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
