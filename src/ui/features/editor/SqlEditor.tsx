import { useEffect, useRef, useState } from 'react';
import type * as Monaco from 'monaco-editor/editor/editor.api';
import type { Schema } from '../../../core/types';
import { registerSchemaCompletion } from './completion';
import { setMountedEditor, sqlToRun } from './editor-handle';

interface Props {
  value: string;
  onChange(value: string): void;
  /** Ctrl/Cmd+Enter: the selection if any, else the statement under the cursor. */
  onRun(sql: string): void;
  schema: Schema | undefined;
}

let monacoPromise: Promise<typeof import('./monaco-setup')> | null = null;
const loadMonaco = () => (monacoPromise ??= import('./monaco-setup'));
let schemaRef: Schema | undefined;
let completionRegistered = false;

export function SqlEditor({ value, onChange, onRun, schema }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const editorRef = useRef<Monaco.editor.IStandaloneCodeEditor | null>(null);
  const latest = useRef({ onChange, onRun });
  // The text may change while Monaco is still loading: the editor starts from the latest one.
  const latestValue = useRef(value);
  latestValue.current = value;
  const [failed, setFailed] = useState<string | null>(null);
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
          ariaLabel: 'SQL editor',
          fixedOverflowWidgets: true,
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

  if (failed) {
    // The editor chunk failed to load: a plain textarea keeps the page usable.
    return (
      <textarea
        className="sql-fallback"
        aria-label="SQL editor"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => {
          if ((e.ctrlKey || e.metaKey) && e.key === 'Enter') onRun(value);
        }}
      />
    );
  }
  return (
    <div ref={host} className="sql-editor" data-testid="sql-editor">
      <noscript>SQL editor</noscript>
    </div>
  );
}
