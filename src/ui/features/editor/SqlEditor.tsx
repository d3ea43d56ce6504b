import { useEffect, useRef, useState } from 'react';
import type * as Monaco from 'monaco-editor/editor/editor.api';
import type { Schema } from '../../../core/types';
import { NewVersionNeeded } from '../../components/NewVersion';
import { isChunkLoadError } from '../../lib/chunk-error';
import { registerSchemaCompletion } from './completion';
import { setMountedEditor, sqlToRun } from './editor-handle';
import { focusOutside } from './focus-out';

interface Props {
  value: string;
  onChange(value: string): void;
  /** Ctrl/Cmd+Enter: the selection if any, else the statement under the cursor. */
  onRun(sql: string): void;
  schema: Schema | undefined;
  /** Enter accepts a suggestion as well as Tab (else Enter always starts a new line). */
  enterAccepts: boolean;
  onEnterAcceptsChange(value: boolean): void;
}

let monacoPromise: Promise<typeof import('./monaco-setup')> | null = null;
const loadMonaco = () => (monacoPromise ??= import('./monaco-setup'));
let schemaRef: Schema | undefined;
let completionRegistered = false;

export function SqlEditor({ value, onChange, onRun, schema, enterAccepts, onEnterAcceptsChange }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const editorRef = useRef<Monaco.editor.IStandaloneCodeEditor | null>(null);
  const latest = useRef({ onChange, onRun });
  // The text may change while Monaco is still loading: the editor starts from the latest one.
  const latestValue = useRef(value);
  latestValue.current = value;
  const [failed, setFailed] = useState<string | null>(null);
  const [tabMovesFocus, setTabMovesFocus] = useState(false);
  const latestEnter = useRef(enterAccepts);
  latestEnter.current = enterAccepts;
  latest.current = { onChange, onRun };
  schemaRef = schema;

  useEffect(() => {
    let disposed = false;
    loadMonaco().then(
      ({ monaco }) => {
        if (disposed || !host.current) return;
        if (!completionRegistered) {
          registerSchemaCompletion(monaco, () => schemaRef);
          completionRegistered = true;
        }
        const editor = monaco.editor.create(host.current, {
          value: latestValue.current,
          language: 'sql',
          automaticLayout: true,
          minimap: { enabled: false },
          fontSize: 14,
          scrollBeyondLastLine: false,
          wordWrap: 'on',
          tabSize: 2,
          renderLineHighlight: 'line',
          ariaLabel: 'SQL editor. Esc then Tab leaves it; Ctrl+M makes Tab move focus.',
          fixedOverflowWidgets: true,
          // Tab accepts a suggestion (Monaco's default); Enter only when the person chose so.
          acceptSuggestionOnEnter: latestEnter.current ? 'on' : 'off',
        });
        const tabFocus = monaco.editor.EditorOption.tabFocusMode;
        setTabMovesFocus(editor.getOption(tabFocus));
        editor.onDidChangeConfiguration((e) => {
          if (e.hasChanged(tabFocus)) setTabMovesFocus(editor.getOption(tabFocus));
        });
        // Ctrl+M, as in VS Code: Tab moves focus / Tab indents. Kept per editor (not Monaco's
        // global switch), so the hint always tells this editor's state.
        // Ctrl on every system (WinCtrl is Ctrl on a Mac, where Cmd+M would minimise the window).
        const toggleTab = () => editor.updateOptions({ tabFocusMode: !editor.getOption(tabFocus) });
        editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyM, toggleTab);
        editor.addCommand(monaco.KeyMod.WinCtrl | monaco.KeyCode.KeyM, toggleTab);
        // "Esc then Tab" leaves the editor (Esc alone still closes a suggestion or the find box).
        let escaped = false;
        editor.onKeyDown((e) => {
          const plainTab = e.keyCode === monaco.KeyCode.Tab && !e.ctrlKey && !e.altKey && !e.metaKey;
          if (plainTab && escaped && host.current) {
            e.preventDefault();
            e.stopPropagation();
            focusOutside(host.current, e.shiftKey ? -1 : 1);
          }
          // Shift alone (on its way to Shift+Tab) keeps the Escape armed.
          const modifierOnly = [monaco.KeyCode.Shift, monaco.KeyCode.Ctrl, monaco.KeyCode.Alt, monaco.KeyCode.Meta];
          if (!modifierOnly.includes(e.keyCode)) escaped = e.keyCode === monaco.KeyCode.Escape;
        });
        editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter, () => latest.current.onRun(sqlToRun(editor)));
        editor.onDidChangeModelContent(() => latest.current.onChange(editor.getValue()));
        editorRef.current = editor;
        setMountedEditor(editor);
        editor.focus();
      },
      (e) => setFailed(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      disposed = true;
      setMountedEditor(null, editorRef.current);
      editorRef.current?.dispose();
      editorRef.current = null;
    };
    // The editor is created once; later value changes are pushed below.
  }, []);

  useEffect(() => {
    const editor = editorRef.current;
    if (editor && editor.getValue() !== value) editor.setValue(value);
  }, [value]);

  useEffect(() => {
    editorRef.current?.updateOptions({ acceptSuggestionOnEnter: enterAccepts ? 'on' : 'off' });
  }, [enterAccepts]);

  if (failed) {
    // The editor chunk failed to load: a plain textarea keeps the page usable.
    return (
      <>
        {isChunkLoadError(failed) && (
          <div className="panel-error error" role="alert">
            <NewVersionNeeded subject="The full SQL editor" />
          </div>
        )}
        <textarea
          className="sql-fallback"
          aria-label="SQL editor"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          onKeyDown={(e) => {
            if ((e.ctrlKey || e.metaKey) && e.key === 'Enter') onRun(value);
          }}
        />
      </>
    );
  }
  return (
    <div className="sql-editor-wrap">
      <div ref={host} className="sql-editor" data-testid="sql-editor">
        <noscript>SQL editor</noscript>
      </div>
      <p className="editor-hint muted small" data-testid="editor-hint">
        <span>
          Tab accepts a suggestion. To leave the editor: Esc then Tab, or Ctrl+M (Ctrl+Shift+M on a Mac) so that Tab
          moves focus <span data-testid="tab-mode">(now: Tab {tabMovesFocus ? 'moves focus' : 'indents'})</span>.
        </span>{' '}
        <label className="check">
          <input type="checkbox" checked={enterAccepts} onChange={(e) => onEnterAcceptsChange(e.target.checked)} />
          Enter accepts a suggestion too
        </label>
      </p>
    </div>
  );
}
