// The mounted editor, so the toolbar's Run button can use the same selection/cursor rule as
// Ctrl/Cmd+Enter without importing the (lazily loaded) editor component.

import type * as Monaco from 'monaco-editor/editor/editor.api';
import { statementAt } from '../../../core/sql/statements';

let mounted: Monaco.editor.IStandaloneCodeEditor | null = null;

export function setMountedEditor(
  editor: Monaco.editor.IStandaloneCodeEditor | null,
  previous?: Monaco.editor.IStandaloneCodeEditor | null,
): void {
  if (editor || mounted === previous) mounted = editor;
}

/** The selection if any, else the statement under the cursor. */
export function sqlToRun(editor: Monaco.editor.IStandaloneCodeEditor): string {
  const model = editor.getModel();
  const selection = editor.getSelection();
  if (!model) return '';
  if (selection && !selection.isEmpty()) return model.getValueInRange(selection);
  const offset = model.getOffsetAt(editor.getPosition() ?? { lineNumber: 1, column: 1 });
  return statementAt(model.getValue(), offset)?.text ?? '';
}

export function currentSqlToRun(fallback: string): string {
  return mounted ? sqlToRun(mounted) : fallback;
}
