import type { Affinity } from '../types';

/** SQLite's column affinity rules (section 3.1 of "Datatypes In SQLite"), in their order. */
export function affinityOf(declaredType: string): Affinity {
  const t = declaredType.toUpperCase();
  if (t.includes('INT')) return 'INTEGER';
  if (t.includes('CHAR') || t.includes('CLOB') || t.includes('TEXT')) return 'TEXT';
  if (t.includes('BLOB') || t.trim() === '') return 'BLOB';
  if (t.includes('REAL') || t.includes('FLOA') || t.includes('DOUB')) return 'REAL';
  return 'NUMERIC';
}
