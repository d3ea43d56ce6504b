// Table and column names of the active database in Monaco's completion list. The provider is
// registered once and reads the current schema through a getter, so switching databases needs
// no re-registration.

import type * as Monaco from 'monaco-editor/editor/editor.api';
import { quoteIdentIfNeeded as completionIdent } from '../../../core/sql/quote';
import type { Schema } from '../../../core/types';

export function registerSchemaCompletion(
  monaco: typeof Monaco,
  getSchema: () => Schema | undefined,
): Monaco.IDisposable {
  return monaco.languages.registerCompletionItemProvider('sql', {
    triggerCharacters: ['.', '"'],
    provideCompletionItems(model, position) {
      const schema = getSchema();
      if (!schema) return { suggestions: [] };
      const word = model.getWordUntilPosition(position);
      const range = {
        startLineNumber: position.lineNumber,
        endLineNumber: position.lineNumber,
        startColumn: word.startColumn,
        endColumn: word.endColumn,
      };
      const before = model.getValueInRange({
        startLineNumber: position.lineNumber,
        startColumn: 1,
        endLineNumber: position.lineNumber,
        endColumn: word.startColumn,
      });
      // After `table.` offer only that table's columns.
      const qualifier = before.match(/("(?:[^"]|"")+"|[A-Za-z_][A-Za-z0-9_]*)\.$/)?.[1];
      const qualifiedTable = qualifier
        ? schema.tables.find(
            (t) => t.name.toLowerCase() === qualifier.replace(/^"|"$/g, '').replace(/""/g, '"').toLowerCase(),
          )
        : undefined;
      const suggestions: Monaco.languages.CompletionItem[] = [];
      const tables = qualifiedTable ? [qualifiedTable] : schema.tables;
      if (!qualifiedTable) {
        for (const t of schema.tables) {
          suggestions.push({
            label: t.name,
            kind: monaco.languages.CompletionItemKind.Struct,
            detail: `${t.kind}${t.rowCount != null ? ` · ${t.rowCount} rows` : ''}`,
            insertText: completionIdent(t.name),
            range,
            sortText: `1${t.name}`,
          });
        }
      }
      for (const t of tables) {
        for (const c of t.columns) {
          suggestions.push({
            label: { label: c.name, description: t.name },
            kind: monaco.languages.CompletionItemKind.Field,
            detail: `${t.name}.${c.name} ${c.declaredType}`,
            insertText: completionIdent(c.name),
            range,
            sortText: `${qualifiedTable ? 0 : 2}${c.name}`,
          });
        }
      }
      return { suggestions };
    },
  });
}
