// A deterministic synthetic schema for timing schema work at the size of a large real database
// (200 tables x 50 columns = 10,000 columns by default). Every table after the first has one to
// three foreign keys to earlier tables, so the graph is connected and paths have several hops;
// every fifth table has a two-column primary key, so keys onto it are composite.

import { mulberry32 as random } from '../random';
import type { ColumnInfo, ForeignKey, Schema, TableInfo } from '../types';

const column = (name: string, declaredType: string, pkIndex = 0): ColumnInfo => ({
  name,
  declaredType,
  affinity: declaredType === 'INTEGER' ? 'INTEGER' : 'TEXT',
  notNull: pkIndex > 0,
  defaultValue: null,
  pkIndex,
  hidden: false,
});

const tableName = (i: number) => `t${String(i).padStart(3, '0')}`;
const hasCompositeKey = (i: number) => i % 5 === 4;

export function makeWideSchema(tables = 200, columnsPerTable = 50, seed = 1): Schema {
  const next = random(seed);
  const out: TableInfo[] = [];
  for (let i = 0; i < tables; i++) {
    const name = tableName(i);
    const composite = hasCompositeKey(i);
    const columns = composite
      ? [column('id', 'INTEGER', 1), column('part', 'INTEGER', 2)]
      : [column('id', 'INTEGER', 1)];
    const foreignKeys: ForeignKey[] = [];
    const fkCount = i === 0 ? 0 : 1 + Math.floor(next() * 3);
    const targets = new Set<number>();
    for (let k = 0; k < fkCount; k++) targets.add(Math.floor(next() * i));
    for (const target of targets) {
      const ref = tableName(target);
      const from = hasCompositeKey(target) ? [`${ref}_id`, `${ref}_part`] : [`${ref}_id`];
      const to = hasCompositeKey(target) ? ['id', 'part'] : ['id'];
      from.forEach((f) => columns.push(column(f, 'INTEGER')));
      foreignKeys.push({
        id: foreignKeys.length,
        table: name,
        from,
        refTable: ref,
        to,
        onUpdate: 'NO ACTION',
        onDelete: 'NO ACTION',
      });
    }
    for (let c = columns.length; c < columnsPerTable; c++)
      columns.push(column(`c${c}`, next() < 0.5 ? 'INTEGER' : 'TEXT'));
    out.push({
      name,
      kind: 'table',
      sql: null,
      columns,
      primaryKey: composite ? ['id', 'part'] : ['id'],
      withoutRowid: false,
      foreignKeys,
      indexes: [],
      rowCount: null,
    });
  }
  return { tables: out, foreignKeys: out.flatMap((t) => t.foreignKeys) };
}
