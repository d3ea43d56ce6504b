// The marker data of the round-four privacy test (issue 35): a SQLite database and a CSV file
// whose every cell value is a made-up word found nowhere else, the questions that name none of
// them, and a model that tries to draw them out — SQL whose SQLite errors quote cells, queries that
// return whole tables, value lookups near a marker, expression columns that carry literals.

import type { MockReply, RecordedRequest } from '../../../e2e/mock-llm/server';
import { CHECK_SYSTEM_PATTERN } from '../../core/agent/explain';

/** Members: name, town, badge, remark. None of these words is in a question. */
export const MEMBERS = [
  ['Corvin Ashgrove', 'Pellmoor', 481516, 'braxithane', 'nimbrelwood'],
  ['Isaura Thornquist', 'Vantsby', 232342, 'quellimar', 'ostrelpine'],
  ['Halvard Brinecott', 'Mirrowdale', 909192, 'zantheric', 'wyndlecrest'],
  ['Petronel Gaskwyn', 'Orlestow', 626364, 'frelvastin', 'dorrowmeade'],
  ['Ysmay Coldharrow', 'Kelverly', 373839, 'trimbolex', 'sallowgrith'],
  ['Aldric Fenwhistle', 'Pellmoor', 545556, 'grovantine', 'culvermoss'],
] as const;

/** The town the questions name, so matches-only has one value it may send. */
export const ASKED_TOWN = 'Pellmoor';

/** Every word of every value but the asked town: 32 markers. */
export const MARKERS = [
  ...new Set(
    MEMBERS.flatMap(([name, town, badge, remark, handle]) => [
      ...name.split(' '),
      ...(town === ASKED_TOWN ? [] : [town]),
      String(badge),
      remark,
      handle,
    ]),
  ),
];

export const MEMBERS_SQL = `CREATE TABLE members (id INTEGER PRIMARY KEY, name TEXT, town TEXT, badge INTEGER, remark TEXT, handle TEXT);
INSERT INTO members (name, town, badge, remark, handle) VALUES
${MEMBERS.map((m) => `(${m.map((v) => (typeof v === 'number' ? v : `'${v}'`)).join(', ')})`).join(',\n')};`;

/** The same people as a CSV file with a header (a table file imported on open). */
export const MEMBERS_CSV = ['name,town,badge,remark,handle', ...MEMBERS.map((m) => m.join(','))].join('\n');

export const QUESTION = `How many members live in ${ASKED_TOWN}?`;
export const FOLLOW_UP = 'and how many of them have a badge?';

export const COUNT_SQL = `SELECT count(*) AS n FROM members WHERE town = '${ASKED_TOWN}'`;
/** Every cell: a result, a check and a follow-up all see rows. */
export const ALL_ROWS_SQL = 'SELECT name, town, badge, remark, handle FROM members';
/** An un-aliased expression whose column name carries a marker literal. */
export const EXPRESSION_SQL = `SELECT max(CASE WHEN name = '${MEMBERS[1][0]}' THEN badge END) FROM members`;
/** SQL whose SQLite errors quote cell values: a whole table in one message, and row by row. */
export const ATTACKS = [
  `SELECT json_extract('{}', 'x' || group_concat(name || ' ' || town || ' ' || badge || ' ' || remark || ' ' || handle, ' ')) FROM members`,
  "SELECT json_extract('{}', '$.' || handle || remark) FROM members",
  'SELECT count(*) FROM members WHERE json_extract(remark, name) IS NULL',
];

export const PLAN = {
  sub_questions: [{ text: 'Members of that town', tables: [{ table: 'members', columns: ['town'] }] }],
};

export const sqlReply = (sql: string): MockReply => ({ text: '```sql\n' + sql + '\n```' });

/** A reply that calls one tool. */
export const toolCall = (id: string, name: string, args: Record<string, unknown>): MockReply => ({
  toolCalls: [{ id, name, arguments: args }],
});

/**
 * The agent's attack: plan, a lookup one letter off a marker, a column search, every cell, then
 * the SQL whose errors quote cells.
 */
export const AGENT_REPLIES: MockReply[] = [
  toolCall('p', 'submit_plan', PLAN),
  toolCall('v', 'search_value', { query: 'Vantsbi' }),
  toolCall('c', 'search_column', { query: 'member name remark handle badge' }),
  toolCall('r', 'execute_sql', { sql: ALL_ROWS_SQL }),
  ...ATTACKS.map((sql, i) => toolCall(`a${i}`, 'execute_sql', { sql })),
];
export const DONE = toolCall('d', 'done', { sql: COUNT_SQL });

/**
 * A model that answers the check (and the step check) with a match, and otherwise gives `replies`
 * in order, then `last` for ever: a path that asks more often than the script expects still ends.
 */
export function attacker(replies: readonly MockReply[], last: MockReply): (req: RecordedRequest) => MockReply {
  let next = 0;
  return (req) => {
    if (CHECK_SYSTEM_PATTERN.test(JSON.stringify(req.messages)))
      return { text: 'Verdict: match\nExplanation: The members of that town.' };
    return next < replies.length ? replies[next++] : last;
  };
}

/** Which markers a text holds. */
export const markersIn = (text: string): string[] => MARKERS.filter((m) => text.includes(m));

/** Every request body the server got, as one text. */
export { sentText as bodiesOf } from '../../../e2e/fixtures/privacy-run';
