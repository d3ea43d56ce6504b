import { describe, expect, it } from 'vitest';
import { schemaOf } from './schema-of';

describe('schemaOf', () => {
  it('builds tables, columns, keys and row counts from the compact description', () => {
    const schema = schemaOf({
      customers: ['customer_id integer pk', 'city'],
      orders: {
        columns: ['order_id INTEGER PK', 'customer_id integer -> customers.customer_id', 'total real'],
        rows: 4,
      },
      totals: { columns: ['n'], kind: 'view' },
    });
    const [customers, orders, totals] = schema.tables;
    expect(customers).toMatchObject({ name: 'customers', kind: 'table', primaryKey: ['customer_id'], rowCount: null });
    expect(customers.columns[0]).toEqual({
      name: 'customer_id',
      declaredType: 'INTEGER',
      affinity: 'INTEGER',
      notNull: false,
      defaultValue: null,
      pkIndex: 1,
      hidden: false,
    });
    expect(customers.columns[1]).toMatchObject({ name: 'city', declaredType: 'TEXT', affinity: 'TEXT', pkIndex: 0 });
    expect(orders.rowCount).toBe(4);
    expect(orders.columns[2]).toMatchObject({ declaredType: 'REAL', affinity: 'REAL' });
    expect(orders.foreignKeys).toEqual([
      {
        id: 1,
        table: 'orders',
        from: ['customer_id'],
        refTable: 'customers',
        to: ['customer_id'],
        onUpdate: 'NO ACTION',
        onDelete: 'NO ACTION',
      },
    ]);
    expect(schema.foreignKeys).toEqual(orders.foreignKeys);
    expect(totals).toMatchObject({ kind: 'view', primaryKey: [] });
  });

  it('numbers a composite primary key in the order of its columns', () => {
    const [t] = schemaOf({ t: ['a pk', 'b', 'c pk'] }).tables;
    expect(t.primaryKey).toEqual(['a', 'c']);
    expect(t.columns.map((c) => c.pkIndex)).toEqual([1, 0, 2]);
  });

  it('refuses a foreign key without a column', () => {
    expect(() => schemaOf({ t: ['a -> other'] })).toThrow(/table\.column/);
  });
});
