// A valid `Schema` for tests from a compact description, so a test names only what it is about
// and still type-checks against the real types (no `as unknown as Schema` hiding fields that
// changed). A column is written `name [TYPE] [pk] [-> table.column]`:
//
//   schemaOf({
//     customers: ['customer_id integer pk', 'city'],
//     orders: { columns: ['order_id integer pk', 'customer_id integer -> customers.customer_id'], rows: 4 },
//   })
//
// The type defaults to TEXT; `pk` marks primary-key columns in their order; `->` adds a foreign key.

import { affinityOf } from '../core/schema/affinity';
import type { ColumnInfo, ForeignKey, Schema, TableInfo } from '../core/types';

export interface TableSpec {
  columns: string[];
  /** Row count (null, the default, when not counted). */
  rows?: number | null;
  kind?: TableInfo['kind'];
}

interface ParsedColumn {
  column: ColumnInfo;
  pk: boolean;
  ref?: { table: string; column: string };
}

function parseColumn(spec: string): ParsedColumn {
  const [left, ref] = spec.split('->').map((s) => s.trim());
  const [name, ...rest] = left.split(/\s+/);
  if (!name) throw new Error(`schemaOf: no column name in "${spec}"`);
  const pk = rest.some((w) => w.toLowerCase() === 'pk');
  const declaredType =
    rest
      .filter((w) => w.toLowerCase() !== 'pk')
      .join(' ')
      .toUpperCase() || 'TEXT';
  let target: ParsedColumn['ref'];
  if (ref !== undefined) {
    const dot = ref.lastIndexOf('.');
    if (dot <= 0) throw new Error(`schemaOf: write a foreign key as "-> table.column", not "${ref}"`);
    target = { table: ref.slice(0, dot), column: ref.slice(dot + 1) };
  }
  return {
    column: {
      name,
      declaredType,
      affinity: affinityOf(declaredType),
      notNull: false,
      defaultValue: null,
      pkIndex: 0,
      hidden: false,
    },
    pk,
    ref: target,
  };
}

function tableOf(name: string, spec: string[] | TableSpec): TableInfo {
  const { columns, rows = null, kind = 'table' } = Array.isArray(spec) ? { columns: spec } : spec;
  const parsed = columns.map(parseColumn);
  const primaryKey: string[] = [];
  for (const p of parsed) if (p.pk) p.column.pkIndex = primaryKey.push(p.column.name);
  const foreignKeys: ForeignKey[] = parsed.flatMap((p, i) =>
    p.ref
      ? [
          {
            id: i,
            table: name,
            from: [p.column.name],
            refTable: p.ref.table,
            to: [p.ref.column],
            onUpdate: 'NO ACTION',
            onDelete: 'NO ACTION',
          },
        ]
      : [],
  );
  return {
    name,
    kind,
    sql: null,
    columns: parsed.map((p) => p.column),
    primaryKey,
    withoutRowid: false,
    foreignKeys,
    indexes: [],
    rowCount: rows,
  };
}

/** A `Schema` of the described tables, in the order given; `foreignKeys` gathers every table's. */
export function schemaOf(tables: Record<string, string[] | TableSpec>): Schema {
  const infos = Object.entries(tables).map(([name, spec]) => tableOf(name, spec));
  return { tables: infos, foreignKeys: infos.flatMap((t) => t.foreignKeys) };
}
