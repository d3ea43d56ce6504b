import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../random';
import { words } from '../text/normalize';
import { endsInsideWord, isDateLike, isDateLikeBytes, normalizeValue, startsWithNormalized } from './value-text';

describe('normalizeValue', () => {
  it('lower-cases, folds accents and splits on anything that is not a letter or digit', () => {
    expect(normalizeValue('Café de l’Ouest')).toBe('cafe de l ouest');
    expect(normalizeValue('  São-Paulo (SP) ')).toBe('sao paulo sp');
    expect(normalizeValue('Øresund, Łódź, Straße')).toBe('oresund lodz strasse');
    expect(normalizeValue("O'Brien & Sons, Inc.")).toBe('o brien sons inc');
    expect(normalizeValue('東京 タワー')).toBe('東京 タワー');
    expect(normalizeValue('---')).toBe('');
  });

  it('gives the same words through the ASCII fast path and the Unicode path', () => {
    for (const text of ['Hello, World!', 'a_b-c d', 'X1 y2']) {
      expect(normalizeValue(text)).toBe(
        words(text + ' é')
          .slice(0, -1)
          .join(' '),
      );
    }
  });

  it('knows when the text ends inside a word', () => {
    expect(endsInsideWord('New Yo')).toBe(true);
    expect(endsInsideWord('New ')).toBe(false);
    expect(endsInsideWord('Café')).toBe(true);
  });
});

describe('startsWithNormalized', () => {
  it('agrees with normalizeValue(value).startsWith(key) on 20,000 random values and keys', () => {
    const random = mulberry32(5);
    const pick = (s: string) => s[Math.floor(random() * s.length)];
    const text = (n: number) => Array.from({ length: Math.floor(random() * n) }, () => pick('aAb B-.1é ')).join('');
    for (let i = 0; i < 20_000; i++) {
      const value = text(12);
      const norm = normalizeValue(value);
      // Keys cut from the value's own normal form (often true) and random ones, some ending in a space.
      const key =
        i % 3 === 0
          ? normalizeValue(text(6))
          : norm.slice(0, Math.floor(random() * (norm.length + 2))) + (i % 5 === 0 ? ' ' : '');
      expect(startsWithNormalized(value, key), `${value} / ${key}`).toBe(norm.startsWith(key));
    }
  });
});

describe('isDateLikeBytes', () => {
  it('says what isDateLike says of the same text', () => {
    const texts = [
      '2019-03-04',
      '2019-03-04 12:33:11',
      '2019-03-04T12:33:11.250Z',
      '2019-03-04 12:33+02:00',
      '12:33',
      '12:33:07.5',
      '2019-3-4',
      '20190304',
      '12345',
      '2019-03-04x',
      '２０１９-03-04',
      '1234-56-78 99:99',
      '',
      '1',
      'Paris',
      '2019-03-04\n',
      '2019/03/04',
      '1:23:45',
      '123:45',
      '12:3x',
      '2019-03-04 12:33:11.123456789+0200',
      '2019-03-04 12:33:11.1234567890123456+02:00',
    ];
    for (const t of texts) {
      const bytes = new TextEncoder().encode(`x${t}y`);
      expect(isDateLikeBytes(bytes, 1, bytes.length - 2), t).toBe(isDateLike(t));
    }
  });

  it('agrees with isDateLike on thousands of dates and near-dates', () => {
    const rnd = mulberry32(11);
    const pick = (s: string) => s[Math.floor(rnd() * s.length)];
    const seeds = [
      '2019-03-04',
      '2019-03-04 12:33',
      '2019-03-04T12:33:11',
      '2019-03-04 12:33:11.25Z',
      '12:33',
      '12:33:07',
      '12:33:07.125',
      '2019-03-04+0200',
      '2019-03-04 12:33-02:00',
      '2019-03-04Z',
    ];
    let dates = 0;
    for (let i = 0; i < 20_000; i++) {
      let t = seeds[i % seeds.length];
      // One to three edits from the characters dates are made of.
      for (let e = Math.floor(rnd() * 4); e > 0; e--) {
        const at = Math.floor(rnd() * (t.length + 1));
        const c = pick('0123456789-:T Z+.x');
        const kind = rnd();
        t =
          kind < 0.4
            ? t.slice(0, at) + c + t.slice(at + 1)
            : kind < 0.7
              ? t.slice(0, at) + c + t.slice(at)
              : t.slice(0, at) + t.slice(at + 1);
      }
      const bytes = new TextEncoder().encode(`9${t}:`);
      const expected = isDateLike(t);
      if (expected) dates++;
      expect(isDateLikeBytes(bytes, 1, bytes.length - 2), t).toBe(expected);
    }
    expect(dates).toBeGreaterThan(2000); // the edits leave many dates, not only broken ones
  });
});
