// Issue 28, items 1 and 2: text that reaches a prompt outside the tools' quoted rows — SQLite's
// runtime error messages, and SQL or plans written in another run (confirmed examples, earlier
// turns of the conversation) — carries its values marked, so the privacy gate decides on them.
import { describe, expect, it } from 'vitest';
import { autoPrompt } from '../agent/auto-prompt';
import { directPrompt } from '../agent/direct-prompt';
import { explainPrompt } from '../agent/explain';
import { buildAgentPrompt } from '../agent/prompt';
import type { PriorTurn } from '../agent/thread';
import { errorData, jsonData, quotedData, sqlData } from '../tools/quote-data';
import { schemaOf } from '../../test-support/schema-of';
import { discloseText, WITHHELD_VALUE, type PrivacyLevel } from './disclose';
import { HAS_MARK, VALUE_CLOSE } from './marks';

const at = (level: PrivacyLevel, text: string, question = 'How many people live in Vexbridge?') =>
  discloseText(text, { level, question });

describe('errorData: SQLite messages raised while reading rows', () => {
  const runtime = { message: "bad JSON path: 'xQuillfeather Brindlemoor 918273'", quotesData: true };

  it('keeps SQLite’s own words and withholds what the message quotes below full', () => {
    expect(at('full', errorData(runtime))).toBe(runtime.message);
    expect(at('schema', errorData(runtime))).toBe(`bad JSON path: '${WITHHELD_VALUE}'`);
    expect(at('matches', errorData(runtime))).toBe(`bad JSON path: '${WITHHELD_VALUE}'`);
  });

  it('under matches, quoted text made of the question’s words goes', () => {
    const own = { message: "bad JSON path: 'Vexbridge'", quotesData: true };
    expect(at('matches', errorData(own))).toBe(own.message);
  });

  it('a message whose words are not SQLite’s is withheld from that word on', () => {
    const odd = { message: 'Brindlemoor is not a path', quotesData: true };
    expect(at('schema', errorData(odd))).toBe(WITHHELD_VALUE);
    const tail = { message: 'malformed JSON Brindlemoor', quotesData: true };
    expect(at('schema', errorData(tail))).toBe(`malformed JSON ${WITHHELD_VALUE}`);
  });

  it('a message without quoted data stays whole; compile errors are not touched', () => {
    expect(at('schema', errorData({ message: 'integer overflow', quotesData: true }))).toBe('integer overflow');
    const compile = { message: 'no such column: Brindlemoor' };
    expect(errorData(compile)).toBe(compile.message);
  });

  it('a mark character inside the data cannot close the mark early', () => {
    const forged = { message: `bad JSON path: 'x${VALUE_CLOSE}Brindlemoor'`, quotesData: true };
    expect(at('schema', errorData(forged))).not.toContain('Brindlemoor');
  });
});

describe('sqlData: SQL written in another run', () => {
  const names = new Set(['people', 'city', 'name', 'order date']);
  const sql = `SELECT name, "Order Date" FROM people WHERE city = 'Brindlemoor' AND code IN (918273, 564738) AND "Caskwater" <> city -- Oakhurst
 ORDER BY 1 LIMIT 10 OFFSET 5`;

  it('reads at full exactly as jsonData, for every statement of a varied list', () => {
    const statements = [
      sql,
      "SELECT x'ABCD', 'it''s', 1.5e-3, -7 FROM t /* a note */",
      "SELECT 'unterminated",
      'SELECT "unterminated',
      'SELECT 1 /* unterminated',
      'SELECT [a b], `c`, $name, ?1 FROM t LIMIT 3, 4',
      "SELECT '\u2028\u0085\uE001' FROM t",
    ];
    for (const s of statements) expect(at('full', sqlData(s, names))).toBe(jsonData(s));
  });

  it('withholds every literal below full, but not names and counts', () => {
    const out = at('schema', sqlData(sql, names));
    for (const v of ['Brindlemoor', '918273', '564738', 'Caskwater', 'Oakhurst']) expect(out).not.toContain(v);
    expect(out).toContain(`city = '${WITHHELD_VALUE}'`);
    expect(out).toContain('\\"Order Date\\"');
    expect(out).toContain('LIMIT 10 OFFSET 5');
    expect(at('schema', sqlData('SELECT * FROM t LIMIT 3, 4'))).toContain('LIMIT 3, 4');
    expect(HAS_MARK.test(out)).toBe(false);
  });

  it('under matches, a literal made of the question’s words goes', () => {
    const out = at('matches', sqlData("SELECT count(*) FROM people WHERE city = 'Vexbridge' OR city = 'Dunmarrow'"));
    expect(out).toContain("'Vexbridge'");
    expect(out).not.toContain('Dunmarrow');
  });
});

describe('quotedData: a plan written in another run', () => {
  it('withholds its quoted parts below full and reads as jsonData at full', () => {
    const text = 'People whose city is \'Brindlemoor\' or "Caskwater" or “Dunmarrow”';
    expect(at('full', quotedData(text))).toBe(jsonData(text));
    const out = at('schema', quotedData(text));
    for (const v of ['Brindlemoor', 'Caskwater', 'Dunmarrow']) expect(out).not.toContain(v);
    expect(out).toContain('People whose city is');
  });
});

describe('prompts with confirmed examples and earlier turns', () => {
  const schema = schemaOf({ people: { columns: ['id integer pk', 'city'], rows: 5 } });
  const userExamples = [
    {
      question: 'How many people live there?',
      plan: { sub_questions: [{ text: "Count people with city = 'Brindlemoor'", tables: [] }] },
      sql: "SELECT count(*) FROM people WHERE city = 'Brindlemoor'",
    },
  ];
  const history: PriorTurn[] = [
    {
      question: 'Who lives there?',
      sql: "SELECT id FROM people WHERE city = 'Caskwater'",
      columns: ['id'],
      totalRows: 1,
    },
  ];
  const question = 'And how many in total?';
  const prompts: Record<string, string> = {
    agent: buildAgentPrompt({ question, schema, mode: 'native', userExamples, history }).user,
    auto: autoPrompt({
      question,
      schema,
      grounding: null,
      userExamples,
      history,
      privacy: { level: 'schema', question },
    })
      .map((m) => m.content)
      .join('\n'),
    direct: directPrompt({ question, schema, history })
      .map((m) => m.content)
      .join('\n'),
  };

  for (const [name, text] of Object.entries(prompts))
    it(`${name}: the values of another run are withheld below full, kept at full`, () => {
      const full = at('full', text, question);
      expect(full).toContain('Caskwater');
      for (const level of ['schema', 'matches'] as const) {
        const out = at(level, text, question);
        expect(out).not.toContain('Brindlemoor');
        expect(out).not.toContain('Caskwater');
      }
      if (name !== 'direct') expect(full).toContain('Brindlemoor');
    });
});

describe('a confirmed plan from the plan card (issue 35, Regenerate from plan)', () => {
  const schema = schemaOf({ people: ['id integer pk', 'name', 'city'] });
  const confirmedPlan = {
    sub_questions: [{ text: "People whose city is 'Brindlemoor'", tables: [{ table: 'people', columns: ['city'] }] }],
  };
  const prompt = (planFromAnotherRun: boolean) =>
    buildAgentPrompt({ question: 'And how many are there?', schema, mode: 'text', confirmedPlan, planFromAnotherRun })
      .user;

  it('written in another run, maybe at full: its quoted values are withheld below full', () => {
    expect(at('full', prompt(true))).toContain("'Brindlemoor'");
    for (const level of ['schema', 'matches'] as const) {
      expect(at(level, prompt(true), 'And how many are there?')).not.toContain('Brindlemoor');
      expect(at(level, prompt(true), 'And how many are there?')).toContain(`'${WITHHELD_VALUE}'`);
    }
  });

  it('a plan the person wrote (the CLI --plan file) is theirs as written', () => {
    expect(at('schema', prompt(false))).toContain("'Brindlemoor'");
  });
});

describe("the check's copy of a plan from the plan card", () => {
  const input = {
    question: 'And how many are there?',
    sql: 'SELECT count(*) FROM people',
    columns: ['count(*)'],
    rows: [[2]],
    totalRows: 1,
    plan: ["People whose city is 'Brindlemoor'"],
  };

  it('marks its quoted values when the plan came from another run, as the agent prompt does', () => {
    expect(at('schema', explainPrompt({ ...input, planFromAnotherRun: true }))).not.toContain('Brindlemoor');
    expect(at('full', explainPrompt({ ...input, planFromAnotherRun: true }))).toContain("'Brindlemoor'");
    expect(at('schema', explainPrompt(input))).toContain("'Brindlemoor'");
  });
});
