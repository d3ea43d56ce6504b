import { describe, expect, it } from 'vitest';
import { significant } from '../../sql/tokens';
import { LexError, postgresName, tokenizePostgres } from './lexer';
import { numberedParams } from './params';

const kinds = (sql: string) => significant(tokenizePostgres(sql)).map((t) => `${t.kind}:${t.text}`);

describe('the PostgreSQL lexer', () => {
  it('reads dollar quotes, with and without a tag, as one string', () => {
    expect(kinds('SELECT $$a;b$$, $x$ $$ ; $x$')).toEqual([
      'word:SELECT',
      'string:$$a;b$$',
      'punct:,',
      'string:$x$ $$ ; $x$',
    ]);
  });

  it('tells parameters from dollar quotes, and nests block comments', () => {
    expect(kinds('a = $1 /* x /* y */ z */ b')).toEqual(['word:a', 'punct:=', 'param:$1', 'word:b']);
  });

  it('knows backslash escapes only in E strings', () => {
    expect(kinds("E'a\\'b' 'c\\' d")).toEqual(["string:E'a\\'b'", "string:'c\\'", 'word:d']);
  });

  it('reads U& forms and folds only ASCII letters of unquoted words', () => {
    expect(kinds('U&"d\\0061t" U&\'x\'')).toEqual(['ident:U&"d\\0061t"', "string:U&'x'"]);
    const [word, quoted] = significant(tokenizePostgres('PG_READ_FİLE "Mixed"'));
    expect(postgresName(word)).toBe('pg_read_fİle');
    expect(postgresName(quoted)).toBe('Mixed');
  });

  it('ends a -- comment at a carriage return too', () => {
    expect(kinds('SELECT 1 --x\rFROM t')).toEqual(['word:SELECT', 'number:1', 'word:FROM', 'word:t']);
  });

  it('refuses text that never ends', () => {
    expect(() => tokenizePostgres("SELECT 'open")).toThrow(LexError);
    expect(() => tokenizePostgres('SELECT $q$ open')).toThrow(LexError);
    expect(() => tokenizePostgres('SELECT /* /* */')).toThrow(LexError);
  });
});

describe('numbered parameters for core SQL on PostgreSQL', () => {
  it('numbers ? outside strings only', () => {
    expect(numberedParams("SELECT v FROM t WHERE a >= ? AND b LIKE ? ESCAPE '\\' AND c = '?'")).toBe(
      "SELECT v FROM t WHERE a >= $1 AND b LIKE $2 ESCAPE '\\' AND c = '?'",
    );
  });
});
