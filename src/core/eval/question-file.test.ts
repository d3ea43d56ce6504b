import { describe, expect, it } from 'vitest';
import { MAX_QUESTIONS, parseQuestionFile } from './question-file';

describe('question files for the Evaluate view', () => {
  it('reads JSON lists and benchmark field names', () => {
    const spider = JSON.stringify([{ db_id: 'x', question: 'How many?', query: 'SELECT count(*) FROM t' }]);
    expect(parseQuestionFile('dev.json', spider)).toEqual([
      { id: '1', question: 'How many?', sql: 'SELECT count(*) FROM t', hints: '' },
    ]);
    const bird = JSON.stringify({
      questions: [{ question_id: 7, question: 'Q?', SQL: 'SELECT 1', evidence: 'rich means > 1M' }],
    });
    expect(parseQuestionFile('bird.json', bird)).toEqual([
      { id: '7', question: 'Q?', sql: 'SELECT 1', hints: 'rich means > 1M' },
    ]);
  });

  it('reads CSV with a header, quoted commas and newlines, a BOM', () => {
    const csv =
      '\uFEFFquestion,sql,hints\r\n"Who, exactly?","SELECT name\nFROM t",\r\nHow many?,SELECT count(*) FROM t,none\r\n';
    expect(parseQuestionFile('q.csv', csv)).toEqual([
      { id: '1', question: 'Who, exactly?', sql: 'SELECT name\nFROM t', hints: '' },
      { id: '2', question: 'How many?', sql: 'SELECT count(*) FROM t', hints: 'none' },
    ]);
  });

  it.each([
    ['bad.json', '[{"question": "Q?"}]', 'Question 1 has no reference SQL'],
    ['bad.json', '[{"sql": "SELECT 1"}]', 'Question 1 has no question'],
    ['bad.json', '{"a": 1}', 'should be a list'],
    ['bad.json', '[1, 2', 'not valid JSON'],
    ['bad.json', '[]', 'holds no questions'],
    ['bad.csv', 'q,a\nx,y\n', 'needs a header row'],
    ['bad.csv', 'question,sql\nQ?,\n', 'Row 2 has no reference SQL'],
    [
      'big.json',
      JSON.stringify(Array.from({ length: MAX_QUESTIONS + 1 }, () => ({ question: 'q', sql: 's' }))),
      'at most',
    ],
  ])('%s: %s', (name, text, message) => {
    expect(() => parseQuestionFile(name, text)).toThrow(message);
  });
});
