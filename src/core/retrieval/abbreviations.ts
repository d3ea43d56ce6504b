// General rules for abbreviated schema names, so a question's words meet `cntry_cd`, `qty`,
// `dob` or `mpg` without a list written for any schema:
//   prefix        the token starts the word, 3+ letters: cust / customer, pop / population;
//   skeleton      the token is the word's first letter then letters of the word in order, with
//                 no vowel after the first letter: cntry / country, cd / code, qty / quantity,
//                 hp / horsepower; or its first three letters then letters in order: dept;
//   acronym       the token is the initials of 2-4 consecutive words of the question: dob /
//                 "date of birth", mpg / "miles per gallon";
//   initial+word  a letter and a word: fname / "first name".

const VOWELS = /[aeiou]/;

function isSubsequence(t: string, w: string): boolean {
  let j = 0;
  for (let i = 0; i < w.length && j < t.length; i++) if (w[i] === t[j]) j++;
  return j === t.length;
}

/** True when `token` (a lower-case identifier part) abbreviates the lower-case `word`. */
export function abbreviates(token: string, word: string): boolean {
  if (token.length < 2 || token.length >= word.length || token[0] !== word[0] || !/^[a-z]+$/.test(token)) return false;
  if (token.length >= 3 && word.startsWith(token)) return true;
  if (!isSubsequence(token, word)) return false;
  return !VOWELS.test(token.slice(1)) || (token.length >= 4 && word.startsWith(token.slice(0, 3)));
}

/**
 * The identifier tokens that the question's words abbreviate, each with the words it stands
 * for. `words` are the question's words in order (function words included, for acronyms).
 */
export function abbreviationMatches(tokens: Iterable<string>, words: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const content = words.filter((w) => w.length >= 3);
  for (const t of tokens) {
    if (t.length < 2 || t.length > 12) continue;
    const meant = content.filter((w) => abbreviates(t, w));
    for (let n = 2; n <= 4 && meant.length === 0; n++) {
      for (let i = 0; i + n <= words.length; i++) {
        const gram = words.slice(i, i + n);
        if (gram.map((w) => w[0]).join('') === t) meant.push(...gram.filter((w) => w.length >= 3));
      }
    }
    if (meant.length === 0 && t.length >= 5) {
      // a letter and a word: "fname" is "first name"
      for (let i = 0; i + 1 < words.length; i++)
        if (words[i][0] === t[0] && words[i + 1] === t.slice(1)) meant.push(words[i], words[i + 1]);
    }
    if (meant.length > 0) out.set(t, [...new Set(meant)]);
  }
  return out;
}
