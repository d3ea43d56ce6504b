import { describe, expect, it } from 'vitest';
import { ValueIndex, ValueIndexBuilder } from './value-index';
import {
  type ByteBatch,
  decodeBatch,
  localTokenizer,
  toByteBatch,
  type TokenizerPort,
  transferablesOf,
} from './value-tokenizer';

/** A port that sends batches and parts through structured clone, as a worker's messages do. */
function clonedPort(log: string[]): TokenizerPort {
  const inner = localTokenizer();
  return {
    addValues: (v) => {
      log.push(`values ${v.ends.length}`);
      inner.addValues(structuredClone(v));
    },
    addTexts: (t) => {
      log.push(`texts ${t.ends.length}`);
      inner.addTexts(structuredClone(t));
    },
    finish: async () => {
      const parts = await inner.finish();
      return structuredClone(parts, { transfer: transferablesOf(parts) });
    },
    close: () => log.push('close'),
  };
}

const NAMES = (i: number) => ['Belmarford', 'North Belmarwick', 'Zoë Ashton', `Person ${i}`][i % 4];

function fill(builder: ValueIndexBuilder) {
  const names = builder.columnNamed('people', 'name', 'rowid');
  const notes = builder.columnNamed('people', 'note', 'rowid');
  for (let i = 0; i < 24_000; i++) {
    names.add(NAMES(i), i + 1);
    notes.add(
      `A long note number ${i % 900} about the Belmarford depot and its ${'very '.repeat(20)}slow deliveries`,
      i + 1,
    );
  }
  names.done(24_000);
  notes.done(24_000);
}

const QUERIES = ['Belmarford', 'Bxlmarfrod', 'belmarwick', 'zoe ashton', 'Person 23999', 'Person 69', 'persn', 'depot'];

describe('ValueIndexBuilder with a tokenizer port', () => {
  it('streams each distinct value and text once, and finds what the same-thread build finds', async () => {
    const log: string[] = [];
    const streamed = new ValueIndexBuilder({ tokenizer: clonedPort(log) });
    fill(streamed);
    const local = new ValueIndexBuilder();
    fill(local);
    const [a, b] = [await streamed.finish(), await local.finish()];
    const sent = (kind: string) =>
      log.filter((l) => l.startsWith(kind)).reduce((n, l) => n + Number(l.split(' ')[1]), 0);
    expect(sent('values')).toBe(new Set(Array.from({ length: 24_000 }, (_, i) => NAMES(i))).size);
    expect(sent('texts')).toBe(900);
    expect(log.filter((l) => l.startsWith('values')).length).toBeGreaterThan(1); // sent in batches while read
    expect(a.size).toBe(b.size);
    expect(a.columns).toEqual(b.columns);
    expect(a.memoryBytes()).toBeGreaterThan(0);
    for (const q of QUERIES) expect(a.search(q, { k: 8 }), q).toEqual(b.search(q, { k: 8 }));
    expect(a.search('Bxlmarfrod')[0]).toMatchObject({ value: 'Belmarford', match: 'fuzzy' });
    expect(a.columnStats('people', 'name')).toEqual(b.columnStats('people', 'name'));
  });

  it('gives the statistics of the columns before tokenizing ends', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const inner = localTokenizer();
    const builder = new ValueIndexBuilder({
      tokenizer: { ...inner, finish: async () => (await gate, inner.finish()) },
    });
    const c = builder.columnNamed('t', 'status', null);
    for (const v of ['open', 'open', 'closed']) c.add(v, null);
    c.done(3);
    const pending = builder.finish();
    expect(builder.counted().columnStats('t', 'status')).toMatchObject({ distinctCount: 2, rowsScanned: 3 });
    release();
    expect((await pending).search('closed')[0].value).toBe('closed');
  });

  it('rejects when the tokenizer fails, and closes it when the build is cancelled', async () => {
    const failing = new ValueIndexBuilder({
      tokenizer: { ...localTokenizer(), finish: () => Promise.reject(new Error('worker died')) },
    });
    failing.columnNamed('t', 'c', null).add('x', null);
    await expect(failing.finish()).rejects.toThrow('worker died');

    const log: string[] = [];
    const ctrl = new AbortController();
    // A terminated worker never answers: the cancel must not wait for it.
    const hanging = new ValueIndexBuilder({
      tokenizer: { ...clonedPort(log), finish: () => new Promise(() => undefined) },
    });
    hanging.columnNamed('t', 'c', null).add('x', null);
    const pending = hanging.finish({ signal: ctrl.signal });
    ctrl.abort();
    await expect(pending).rejects.toMatchObject({ code: 'cancelled' });
    expect(log).toContain('close');
  });

  it('is what fromValues and the default builder use: values tokenized after the read, on this thread', async () => {
    const index = await ValueIndex.fromValues([{ table: 't', column: 'c', values: { Paris: 2, Oslo: 1 } }]);
    expect(index.search('pariss')[0]).toMatchObject({ value: 'Paris', rows: 2 });
  });
});

describe('decodeBatch', () => {
  const decodeEach = (batch: ByteBatch) => {
    const out: string[] = [];
    for (let i = 0, start = 0; i < batch.ends.length; start = batch.ends[i++])
      out.push(new TextDecoder('utf-8', { ignoreBOM: true }).decode(batch.bytes.subarray(start, batch.ends[i])));
    return out;
  };
  const split = ({ text, ends }: { text: string; ends: Uint32Array }) =>
    Array.from(ends, (end, i) => text.slice(i === 0 ? 0 : ends[i - 1], end));

  it('finds each value in one decode of ASCII, accents, other planes and a leading BOM', () => {
    for (const values of [
      ['Paris', '', 'Oslo 2'],
      ['Zoë', 'naïve café', '😀 smile', '\uFEFFbom first', '東京'],
    ]) {
      const batch = toByteBatch(values);
      const decoded = decodeBatch(batch);
      expect(split(decoded)).toEqual(values);
      // One decode, the values found by the batch's own UTF-16 ends (not decoded one by one).
      expect(decoded.ends).toBe(batch.units);
    }
  });

  it('decodes broken UTF-8 value by value, so that no character spans two values', () => {
    const bytes = new Uint8Array([0x61, 0xe2, 0x82, 0xac, 0x62, 0xe2, 0x82, 0xac, 0x63, 0xff, 0x64]);
    // "a€b" | "\xE2" | "\x82\xACc" (a character cut between two values) | "\xFFd" (invalid byte)
    const batch: ByteBatch = {
      bytes,
      ends: new Uint32Array([5, 6, 9, 11]),
      units: new Uint32Array([3, 4, 7, 9]),
    };
    const decoded = decodeBatch(batch);
    expect(split(decoded)).toEqual(decodeEach(batch));
    expect(split(decoded)[0]).toBe('a€b');
    expect(split(decoded)[3]).toBe('\uFFFDd');
    // Valid as a whole, but a value starts inside a character: still value by value.
    const cut: ByteBatch = {
      bytes: bytes.subarray(0, 9),
      ends: new Uint32Array([2, 9]),
      units: new Uint32Array([2, 5]), // as utf16Length counts them,
    };
    expect(split(decodeBatch(cut))).toEqual(decodeEach(cut));
  });
});
