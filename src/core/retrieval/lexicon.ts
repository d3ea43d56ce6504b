// Word relations from WordNet (lexicon-data.ts, made by scripts/make-lexicon.ts): stems of
// synonyms, derivationally related forms and attributes of a stem, so "tall" meets a column
// `height`, "heavy" meets `weight` and "inhabitants" meets `population`. Loaded on first use
// (a separate chunk of about 330 KB in the page's worker), parsed once.

export type Lexicon = ReadonlyMap<string, readonly string[]>;

let loaded: Promise<Lexicon> | null = null;

export function parseLexicon(text: string): Lexicon {
  const out = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const [stem, ...related] = line.split(' ');
    if (stem) out.set(stem, related);
  }
  return out;
}

/** The WordNet lexicon, loaded and parsed once. */
export function loadLexicon(): Promise<Lexicon> {
  loaded ??= import('./lexicon-data').then((m) => parseLexicon(m.LEXICON));
  return loaded;
}
