// Words from identifiers and questions, normalised so they meet: `CustomerID`, `customer_id`
// and "customers" all give `custom` + `id`. Used by the column index and the structure linker.

import { stemmer } from 'stemmer';

/** Splits identifiers on case changes, underscores, digits and punctuation: `orderDate2` -> order, date, 2 */
export function splitIdentifier(name: string): string[] {
  return name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([A-Za-z])(\d)/g, '$1 $2')
    .replace(/(\d)([A-Za-z])/g, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

/** Lower-case, accent-free words of free text. */
export function words(text: string): string[] {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/**
 * Abbreviations common in schemas, expanded so a question's words can meet them. Both sides get
 * the expansion: a column `dob` and the question "date of birth" share `date`, `birth`.
 */
const ABBREVIATIONS: Record<string, string> = {
  id: 'id identifier',
  no: 'number',
  num: 'number',
  nbr: 'number',
  qty: 'quantity',
  amt: 'amount',
  dob: 'date birth',
  desc: 'description',
  descr: 'description',
  addr: 'address',
  dept: 'department',
  emp: 'employee',
  mgr: 'manager',
  cust: 'customer',
  prod: 'product',
  cat: 'category',
  yr: 'year',
  dt: 'date',
  tel: 'telephone phone',
  ph: 'phone',
  avg: 'average',
  min: 'minimum',
  max: 'maximum',
  pct: 'percent percentage',
  perc: 'percent',
  ctry: 'country',
  cnt: 'count',
  st: 'state street',
  lat: 'latitude',
  lng: 'longitude',
  lon: 'longitude',
  pos: 'position',
  pop: 'population',
  info: 'information',
  std: 'student',
  stu: 'student',
  prof: 'professor',
  fname: 'first name',
  lname: 'last name',
  mname: 'middle name',
  zip: 'zip postal code',
  src: 'source',
  dst: 'destination',
  dest: 'destination',
  org: 'organization',
  acct: 'account',
  bal: 'balance',
  txn: 'transaction',
  trans: 'transaction',
  hp: 'horsepower',
  mpg: 'miles per gallon',
  gnp: 'gross national product',
  ht: 'height',
  wt: 'weight',
  ref: 'reference',
  seq: 'sequence',
  ver: 'version',
  img: 'image',
  temp: 'temperature',
  loc: 'location',
  reg: 'region registration',
  gov: 'government',
  govt: 'government',
  capacity: 'capacity size',
  sex: 'sex gender',
  gender: 'gender sex',
};

/** Small synonym table for words questions use where schemas use another (kept deliberately short). */
const SYNONYMS: Record<string, string> = {
  old: 'age',
  oldest: 'age',
  youngest: 'age',
  young: 'age',
  older: 'age',
  younger: 'age',
  born: 'birth',
  birthday: 'birth',
  earn: 'salary',
  earns: 'salary',
  paid: 'salary payment',
  cost: 'price',
  costs: 'price',
  expensive: 'price',
  cheap: 'price',
  cheapest: 'price',
  long: 'length duration',
  longest: 'length duration',
  tall: 'height',
  tallest: 'height',
  heavy: 'weight',
  heaviest: 'weight',
  big: 'size capacity',
  biggest: 'size capacity',
  largest: 'size capacity',
  populous: 'population',
  when: 'date year time',
  year: 'year date',
  where: 'location address city country',
  live: 'address city',
  lives: 'address city',
  called: 'name',
  named: 'name',
  title: 'title name',
  country: 'country nation',
  nation: 'country',
  female: 'sex gender',
  male: 'sex gender',
  women: 'sex gender',
  men: 'sex gender',
  many: 'count number',
  number: 'number count',
  total: 'total sum amount',
  rank: 'rank ranking',
  ranked: 'rank ranking',
  first: 'first',
  last: 'last',
  email: 'email',
  mail: 'email',
  kind: 'type',
  kinds: 'type',
  sort: 'type',
  category: 'category type',
  genre: 'genre type',
};

const STOPWORDS = new Set(
  (
    'a an the of in on at to for from by with and or not no is are was were be been being do does did ' +
    'what which who whom whose how that this these those there their them they it its as all any each every ' +
    'show list give find return display tell me please also than then more most less least such only ' +
    'have has had will would can could should may might must per into about over under between both either ' +
    'other others same different name names'
  ).split(' '),
);

/** Stemmed words for matching. `name` is a stopword for questions ("names of …"), not for schemas. */
export function stemAll(ws: string[]): string[] {
  return ws.map((w) => stemmer(w));
}

/** Terms of a schema identifier: its parts, their expansions, stemmed. */
export function identifierTerms(name: string): string[] {
  const parts = splitIdentifier(name);
  const expanded = parts.flatMap((p) => [p, ...(ABBREVIATIONS[p]?.split(' ') ?? [])]);
  return stemAll(expanded);
}

/** Terms of a question: words without stopwords, plus synonyms and expansions, stemmed. */
export function questionTerms(question: string): string[] {
  const ws = words(question).filter((w) => !STOPWORDS.has(w));
  const expanded = ws.flatMap((w) => [w, ...(SYNONYMS[w]?.split(' ') ?? []), ...(ABBREVIATIONS[w]?.split(' ') ?? [])]);
  return stemAll(expanded);
}

export function isStopword(w: string): boolean {
  return STOPWORDS.has(w);
}
