import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../random';
import { closestNames, dropPossessives, foldCase, splitIdentifier, words, wordSpans } from './normalize';

describe('foldCase', () => {
  it('lower-cases and folds accents, ligatures and letters NFKD keeps whole', () => {
    expect(foldCase('ÉCOLE')).toBe('ecole');
    expect(foldCase('Straße')).toBe('strasse');
    expect(foldCase('Øresund Łódź')).toBe('oresund lodz');
    expect(foldCase('ﬁnance')).toBe('finance');
    expect(foldCase('ＡＢＣ')).toBe('abc');
    expect(foldCase('plain ascii')).toBe('plain ascii');
  });

  it('is idempotent', () => {
    for (const t of ['Café', 'Straße', 'naïve', 'ﬁ', '東京', 'Acme™', '℡'])
      expect(foldCase(foldCase(t))).toBe(foldCase(t));
  });
});

describe('words', () => {
  it('splits folded text on anything that is not a letter or digit, in any script', () => {
    expect(words("Café de l'Ouest")).toEqual(['cafe', 'de', 'l', 'ouest']);
    expect(words('  São-Paulo (SP) ')).toEqual(['sao', 'paulo', 'sp']);
    expect(words('user_id2, 1999!')).toEqual(['user', 'id2', '1999']);
    expect(words('東京タワー 🗼 rocks')).toEqual(['東京タワー', 'rocks']);
    expect(words('I ❤️ NY')).toEqual(['i', 'ny']);
    // Folding may make a symbol a letter: the word is the same alone or beside an accented one.
    expect(words('Acme™')).toEqual(['acmetm']);
    expect(words('Acme™ café')).toEqual(['acmetm', 'cafe']);
    expect(words('---')).toEqual([]);
  });

  it('joins a letter and its combining accent into one word', () => {
    expect(words('nai\u0308ve cafe\u0301')).toEqual(['naive', 'cafe']);
  });

  it('gives the same words through the ASCII fast path and the Unicode path', () => {
    for (const t of ['Hello, World!', 'a_b-c d', 'X1 y2']) expect(words(t)).toEqual(words(t + ' é').slice(0, -1));
  });
});

describe('dropPossessives', () => {
  it('drops an apostrophe-s after a letter, in either case, and nothing else', () => {
    expect(dropPossessives("Kyle's friends and JAMES'S car")).toBe('Kyle friends and JAMES car');
    expect(dropPossessives('Kyle’s')).toBe('Kyle');
    expect(dropPossessives("O'Brien's dog, the '90s")).toBe("O'Brien dog, the '90s");
  });
});

describe('splitIdentifier', () => {
  it('splits on case changes, digits and underscores, and folds as words does', () => {
    expect(splitIdentifier('orderDate2')).toEqual(['order', 'date', '2']);
    expect(splitIdentifier('CustomerID')).toEqual(['customer', 'id']);
    expect(splitIdentifier('HTTPServer')).toEqual(['http', 'server']);
    expect(splitIdentifier('customer_id')).toEqual(['customer', 'id']);
    expect(splitIdentifier('Année_Naissance')).toEqual(['annee', 'naissance']);
    expect(splitIdentifier('prénomÉlève')).toEqual(['prenom', 'eleve']);
  });

  it('meets the question words of the same name', () => {
    expect(splitIdentifier('date_de_Naissance')).toEqual(words('date de naissance'));
    expect(splitIdentifier('Année')).toEqual(words('année'));
  });
});

describe('wordSpans', () => {
  it('finds the words where they stand, an apostrophe-joined word whole', () => {
    const q = "Is Kyle's café near O'Brien?";
    expect(wordSpans(q).map((s) => [s.text, q.slice(s.start, s.end)])).toEqual([
      ['Is', 'Is'],
      ["Kyle's", "Kyle's"],
      ['café', 'café'],
      ['near', 'near'],
      ["O'Brien", "O'Brien"],
    ]);
  });

  it('keeps one apostrophe inside a word, as the linker always has', () => {
    expect(wordSpans("rock'n'roll").map((s) => s.text)).toEqual(["rock'n", 'roll']);
    expect(wordSpans("the '90s").map((s) => s.text)).toEqual(['the', '90s']);
  });

  it('makes no span of a lone mark or an emoji', () => {
    expect(wordSpans('❤️ \u0301 🗼').map((s) => s.text)).toEqual([]);
    expect(wordSpans('😀love').map((s) => s.text)).toEqual(['love']);
  });

  // The privacy gate reads words(question), the linker reads the spans: they must cut alike.
  const TRICKY = [
    "Where does O'Brien live? And Kyle's friends?",
    'São Paulo, Zürich, Straße, Øresund, naïve, nai\u0308ve',
    'orders in 2019 with order_id 42 or x2y3',
    'customerName and HTTPServer',
    '東京タワー の 高さ, 서울, Москва',
    'I ❤️ NY 🗽, 1️⃣ thing, 👍🏽 ok',
    'Acme™ ﬁnance ½ ⑴ №5',
    "rock'n'roll, ‘quoted’, l’Ouest, '90s",
    'ΟΔΟΣ Αθηνών',
  ];

  it('cuts exactly the words `words` cuts, on tricky strings', () => {
    for (const t of TRICKY) {
      expect(
        wordSpans(t).flatMap((s) => words(s.text)),
        t,
      ).toEqual(words(t));
      for (const s of wordSpans(t)) expect(t.slice(s.start, s.end)).toBe(s.text);
    }
  });

  it('cuts exactly the words `words` cuts, on random strings of tricky characters', () => {
    const pool = [..."aZé\u0301ß_1 '’-.,😀🏽\uFE0F\u20E3東字™½ﬁØı"];
    const random = mulberry32(27);
    for (let n = 0; n < 2000; n++) {
      const t = Array.from(
        { length: 1 + Math.floor(random() * 12) },
        () => pool[Math.floor(random() * pool.length)],
      ).join('');
      expect(
        wordSpans(t).flatMap((s) => words(s.text)),
        JSON.stringify(t),
      ).toEqual(words(t));
    }
  });
});

describe('closestNames', () => {
  it('suggests near misses and containing names, best first', () => {
    expect(closestNames('nme', ['name', 'id', 'city'])).toEqual(['name']);
    expect(closestNames('Custmer', ['customers', 'orders', 'Customer'])).toEqual(['Customer', 'customers']);
    expect(closestNames('name', ['first_name', 'age'])).toEqual(['first_name']);
    expect(closestNames('zzz', ['name', 'age'])).toEqual([]);
  });

  it('ranks closer spellings before containing names', () => {
    expect(closestNames('customer', ['customer_id', 'customr'])).toEqual(['customr', 'customer_id']);
  });

  it('compares without case or accents', () => {
    expect(closestNames('CAFE', ['café', 'tea'])).toEqual(['café']);
    expect(closestNames('annee', ['Année', 'mois'])).toEqual(['Année']);
  });

  it('orders ties the same way everywhere, and stops at the limit', () => {
    expect(closestNames('cat', ['cot', 'Cut', 'cit', 'cat_2'])).toEqual(['cat_2', 'cit', 'cot']);
    expect(closestNames('cat', ['cot', 'Cut', 'cit', 'cat_2'], 5)).toEqual(['cat_2', 'cit', 'cot', 'Cut']);
    expect(closestNames('cat', ['cat', 'cat'])).toEqual(['cat']);
  });
});
