import { describe, expect, it } from 'vitest';
import { DowserError } from '../errors';
import { errorFromWire, errorToWire, fromWire, toWire } from './wire';

const roundTrip = (v: unknown) => fromWire(JSON.parse(JSON.stringify(toWire(v))));

describe('the wire between the page and dowser serve', () => {
  it('keeps what a worker would keep: 64-bit integers, blobs, scores, maps, non-finite numbers', () => {
    const value = {
      rows: [[9007199254740993n, new Uint8Array([0, 1, 255]), 'text', null, 1.5, NaN, -Infinity]],
      semantic: new Float32Array([0.25, -1]),
      descriptions: new Map([['t', new Map([['c', 'a column']])]]),
      gone: undefined,
      list: [undefined, 1],
    };
    const back = roundTrip(value) as typeof value;
    expect(back.rows[0][0]).toBe(9007199254740993n);
    expect(back.rows[0][1]).toEqual(new Uint8Array([0, 1, 255]));
    expect(back.rows[0].slice(2, 5)).toEqual(['text', null, 1.5]);
    expect(Number.isNaN(back.rows[0][5])).toBe(true);
    expect(back.rows[0][6]).toBe(-Infinity);
    expect(back.semantic).toBeInstanceOf(Float32Array);
    expect([...back.semantic]).toEqual([0.25, -1]);
    expect(back.descriptions.get('t')?.get('c')).toBe('a column');
    expect('gone' in back).toBe(false);
    expect(back.list).toEqual([undefined, 1]);
  });

  it('carries a large blob whole', () => {
    const bytes = new Uint8Array(300_000).map((_, i) => i % 251);
    expect(roundTrip(bytes)).toEqual(bytes);
  });

  it('an object of data that uses the tag as a key stays data, not a tagged value', () => {
    const sneaky = { $wire: 'bigint', v: '12' };
    expect(roundTrip(sneaky)).toEqual(sneaky);
    expect(roundTrip([sneaky])).toEqual([sneaky]);
  });

  it('refuses a malformed tagged value instead of guessing', () => {
    expect(() => fromWire({ $wire: 'bigint', v: '12x' })).toThrow(DowserError);
    expect(() => fromWire({ $wire: 'f32', v: ['a'] })).toThrow(/cannot read/);
    expect(() => fromWire({ $wire: 'nothing' })).toThrow(/cannot read/);
    expect(() => toWire({ f: () => 1 })).toThrow(/cannot be sent/);
  });

  it('errors keep their code, message and detail; an unknown code becomes internal', () => {
    const e = errorFromWire(errorToWire(new DowserError('read_only', 'Only reading', 'HINT: x', true)));
    expect([e.code, e.message, e.detail, e.quotesData]).toEqual(['read_only', 'Only reading', 'HINT: x', true]);
    expect(errorFromWire({ code: 'rm_rf', message: 'm' }).code).toBe('internal');
    expect(errorFromWire(null).message).toMatch(/without a message/);
  });
});
