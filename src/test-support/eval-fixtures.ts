// Small Spider- and BIRD-format datasets for the `dowser eval` tests, generated in a temporary
// folder: question files, databases in the benchmarks' layouts, BIRD column descriptions.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MockReply, RecordedRequest } from '../../e2e/mock-llm/server';
import { buildDb, SHOP_SQL } from './build-db';
import { PAIRS_DB_SQL } from './official-pairs';
import { isCheckSystem } from '../core/agent/explain';

export const SPIDER_QUESTIONS = [
  { db_id: 'shop', question: 'How many customers are there?', query: 'SELECT count(*) FROM customers' },
  {
    db_id: 'shop',
    question: 'Total of paid orders from Paris?',
    query:
      "SELECT sum(o.total) FROM customers c JOIN orders o ON o.customer_id = c.id WHERE c.city = 'Paris' AND o.status = 'paid'",
  },
  {
    db_id: 'pairs',
    question: 'Names of the singers from the USA?',
    query: "SELECT name FROM singer WHERE country = 'USA'",
  },
  {
    db_id: 'pairs',
    question: 'Singers from the oldest to the youngest?',
    query: 'SELECT name FROM singer ORDER BY age DESC, id',
  },
  { db_id: 'gone', question: 'A question whose database is missing?', query: 'SELECT 1' },
  {
    db_id: 'pairs',
    question: 'How many concerts were there in 2014?',
    query: 'SELECT count(*) FROM concert WHERE year = 2014',
  },
];

/** `<dir>/dev.json` and `<dir>/database/<db>/<db>.sqlite` (no `gone`). */
export async function writeSpiderFixture(dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'dev.json'), JSON.stringify(SPIDER_QUESTIONS, null, 1));
  for (const [db, sql] of [
    ['shop', SHOP_SQL],
    ['pairs', PAIRS_DB_SQL],
  ]) {
    mkdirSync(join(dir, 'database', db), { recursive: true });
    writeFileSync(join(dir, 'database', db, `${db}.sqlite`), await buildDb(sql));
  }
}

const CLUB_SQL = `
CREATE TABLE member (member_id TEXT PRIMARY KEY, first_name TEXT, last_name TEXT, position TEXT, t_shirt_size TEXT, zip INTEGER);
CREATE TABLE expense (expense_id TEXT PRIMARY KEY, expense_description TEXT, cost REAL, link_to_member TEXT REFERENCES member(member_id));
INSERT INTO member VALUES ('m1','Angela','Sanders','Member','Medium',55108),('m2','Grant','Gilmour','Vice President','X-Large',28092),
  ('m3','Luisa','Guidi','Member','Medium',28109),('m4','Phillip','Cullen','President','Large',29440);
INSERT INTO expense VALUES ('e1','Posters',67.81,'m2'),('e2','Water, chips, cookies',122.06,'m2'),('e3','Pizza',51.81,'m4'),('e4','Posters',67.81,'m3');
`;

export const BIRD_QUESTIONS = [
  {
    question_id: 1312,
    db_id: 'student_club',
    question: 'What is the t-shirt size of the vice president?',
    evidence: "vice president refers to position = 'Vice President'",
    SQL: "SELECT t_shirt_size FROM member WHERE position = 'Vice President'",
    difficulty: 'simple',
  },
  {
    question_id: 1313,
    db_id: 'student_club',
    question: 'How much did the vice president spend in all?',
    evidence: "vice president refers to position = 'Vice President'; spent refers to cost",
    SQL: "SELECT SUM(T2.cost) FROM member AS T1 INNER JOIN expense AS T2 ON T1.member_id = T2.link_to_member WHERE T1.position = 'Vice President'",
    difficulty: 'moderate',
  },
  {
    question_id: 1320,
    db_id: 'student_club',
    question: 'Full names of members who spent on posters?',
    evidence: "posters refers to expense_description = 'Posters'",
    SQL: "SELECT T1.first_name, T1.last_name FROM member AS T1 INNER JOIN expense AS T2 ON T1.member_id = T2.link_to_member WHERE T2.expense_description = 'Posters'",
    difficulty: 'challenging',
  },
  {
    question_id: 77,
    db_id: 'formula_1',
    question: 'A question whose database was not downloaded?',
    evidence: '',
    SQL: 'SELECT 1',
    difficulty: 'simple',
  },
];

export const CLUB_DESCRIPTION = 'the size of the t-shirt the club gave the member';

/** `<dir>/mini_dev_sqlite.json` and `<dir>/dev_databases/student_club/` with its descriptions. */
export async function writeBirdFixture(dir: string): Promise<void> {
  const db = join(dir, 'dev_databases', 'student_club');
  mkdirSync(join(db, 'database_description'), { recursive: true });
  writeFileSync(join(dir, 'mini_dev_sqlite.json'), JSON.stringify(BIRD_QUESTIONS, null, 1));
  writeFileSync(join(db, 'student_club.sqlite'), await buildDb(CLUB_SQL));
  writeFileSync(
    join(db, 'database_description', 'member.csv'),
    '\ufefforiginal_column_name,column_name,column_description,data_format,value_description\r\n' +
      `t_shirt_size,t-shirt size,${CLUB_DESCRIPTION},text,"Small, Medium, Large, X-Large"\r\n` +
      'position,,the position the member holds in the club,text,\r\n',
  );
}

/**
 * A mock server script that answers like a model that knows the references: plan, the `lookups`
 * (tool calls), run the SQL, done, then an explanation for the closing request (the one without
 * tools). `sqlFor` maps the question (read from the prompt) to the SQL to give.
 */
export function knowingModel(
  sqlFor: (question: string) => string | undefined,
  lookups: Array<{ name: string; arguments: Record<string, unknown> }> = [],
) {
  return (request: RecordedRequest): MockReply => {
    const messages = request.messages as Array<{ role: string; content: string | null }>;
    const prompt = messages.map((m) => m.content ?? '').join('\n');
    const question = [...prompt.matchAll(/"((?:[^"\\]|\\.)*)"/g)]
      .map((m) => JSON.parse(`"${m[1]}"`) as string)
      .find((q) => sqlFor(q));
    const sql = question ? sqlFor(question)! : 'SELECT 1';
    if (!request.tools) {
      // The check of a result, or a request for the SQL itself (Auto and Direct).
      if (isCheckSystem(messages[0]?.content ?? ''))
        return { text: 'Explanation: The answer to the question.\nVerdict: match' };
      return { text: '```sql\n' + sql + '\n```' };
    }
    const step = messages.filter((m) => m.role === 'assistant').length;
    const call = (name: string, args: unknown) => ({
      toolCalls: [{ id: `c${step}`, name, arguments: args as Record<string, unknown> }],
    });
    if (step === 0) return call('submit_plan', { sub_questions: [{ text: question ?? 'the question', tables: [] }] });
    if (step <= lookups.length) return call(lookups[step - 1].name, lookups[step - 1].arguments);
    if (step === lookups.length + 1) return call('execute_sql', { sql });
    return call('done', { sql });
  };
}
