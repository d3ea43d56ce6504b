import { describe, expect, it } from 'vitest';
import { createScriptedModel } from '../llm/scripted';
import type { ChatRequest } from '../llm/types';
import { jsonData, quoteData, rowData, valueData } from '../tools/quote-data';
import {
  assertDisclosed,
  defaultPrivacy,
  discloseText,
  isLocalUrl,
  WITHHELD_ROWS,
  WITHHELD_VALUE,
  withPrivacy,
} from './disclose';
import { VALUE_OPEN } from './marks';

const question = 'Which patients live in São Paulo in 1999?';
const text = [
  `Values: ${valueData('Sao Paulo')}, ${valueData('Paulo Coelho')}, ${quoteData(1999)}, ${quoteData(1998)}`,
  'Columns: name, city',
  rowData(['Ana', 'Sao Paulo']),
  rowData(['Rui', 'Lisbon']),
  '(2 rows)',
].join('\n');

describe('discloseText', () => {
  it('full: every value, no mark', () => {
    const out = discloseText(text, { level: 'full', question });
    expect(out).toContain('"Paulo Coelho"');
    expect(out).toContain('"Rui" | "Lisbon"');
    expect(out).not.toMatch(/[\uE000-\uE003]/);
  });

  it('matches: values made of question words (accents and case aside), rows as one note', () => {
    const out = discloseText(text, { level: 'matches', question });
    expect(out.split('\n')[0]).toBe(`Values: "Sao Paulo", ${WITHHELD_VALUE}, 1999, ${WITHHELD_VALUE}`);
    expect(out).toContain(`Columns: name, city\n${WITHHELD_ROWS}\n(2 rows)`);
    expect(out).not.toContain('Ana');
  });

  it('schema: no value at all', () => {
    const out = discloseText(text, { level: 'schema', question });
    expect(out).not.toMatch(/Paulo|1999|1998|Lisbon/);
    expect(out).toContain(`Values: ${WITHHELD_VALUE}, ${WITHHELD_VALUE}`);
  });

  it('data cannot forge a mark: marks inside a value are escaped, an unclosed value is withheld', () => {
    expect(jsonData('a\uE001b')).toBe('"a\\ue001b"');
    expect(discloseText(valueData('x\uE001 "Lisbon"'), { level: 'matches', question: 'x' })).toBe(WITHHELD_VALUE);
    expect(discloseText(`${VALUE_OPEN}"Lisbon" and the rest`, { level: 'matches', question: 'Lisbon' })).toBe(
      WITHHELD_VALUE,
    );
  });
});

describe('withPrivacy and the clients', () => {
  it('discloses every message of every request the model is sent', async () => {
    const seen: ChatRequest[] = [];
    const inner = createScriptedModel([{ text: 'ok' }]);
    const model = withPrivacy(
      { ...inner, stream: (r) => (seen.push(r), inner.stream(r)) },
      { level: 'schema', question: '' },
    );
    for await (const part of model.stream({ messages: [{ role: 'tool', toolCallId: 'a', name: 'x', content: text }] }))
      void part;
    expect(seen[0].messages[0].content).not.toMatch(/Paulo|Lisbon|[\uE000-\uE003]/);
  });

  it('a body that still carries a mark is not sent', () => {
    expect(() => assertDisclosed(JSON.stringify({ content: valueData('Lisbon') }))).toThrow(/privacy gate/);
    expect(() => assertDisclosed('{"content":"Lisbon"}')).not.toThrow();
  });

  it('knows local URLs', () => {
    expect(isLocalUrl('http://localhost:11434/v1')).toBe(true);
    expect(isLocalUrl('http://127.0.0.1:1234')).toBe(true);
    expect(isLocalUrl('http://[::1]:8080/v1')).toBe(true);
    expect(isLocalUrl('https://api.openai.com/v1')).toBe(false);
    expect(isLocalUrl('http://localhost.evil.example/v1')).toBe(false);
    expect(isLocalUrl(undefined)).toBe(false);
    expect(isLocalUrl('http://[::ffff:127.0.0.1]:8080/v1')).toBe(true);
    expect(isLocalUrl('http://[::ffff:10.0.0.1]:8080/v1')).toBe(false);
    expect(isLocalUrl('http://127.0.0.1.example/v1')).toBe(false);
  });

  it('defaults to full only for a model on this machine (onDevice, or a loopback server)', () => {
    expect(defaultPrivacy({ onDevice: true }, 'https://example.com')).toBe('full');
    expect(defaultPrivacy({ onDevice: false }, 'http://127.0.0.1:9/v1')).toBe('full');
    expect(defaultPrivacy({ onDevice: false }, 'http://gpu-box.lan:8000/v1')).toBe('matches');
    expect(defaultPrivacy(undefined, undefined)).toBe('matches');
    expect(defaultPrivacy({ onDevice: false }, 'https://api.openai.com/v1', 'schema')).toBe('schema');
  });
});
