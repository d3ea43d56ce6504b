// UI state. Database contents never live here: only names, reports and the last result.

import { create } from 'zustand';
import type { Glossary } from '../../core/descriptions/glossary';
import type { DowserError } from '../../core/errors';
import type { ToolsSummary } from '../../core/engine';
import type { ToolboxProgress } from '../../core/tools/toolbox';
import type { OpenReport, QueryResult } from '../../core/types';
import { loadSettings, saveSettings, type Settings } from '../lib/app-settings';
import type { TablePreview } from '../../core/import/table-preview';

export type { Settings };

export interface DbEntry {
  id: string;
  name: string;
  sizeBytes: number;
  status: 'opening' | 'ready';
  /** 0..1 while the worker reads a large file. */
  progress: number;
  report?: OpenReport;
  /** Wall time from picking the file to a queryable database, ms. */
  readyMs?: number;
}

export type RunOrigin = 'editor' | 'preview' | 'agent';

export interface RunState {
  status: 'idle' | 'running' | 'done' | 'error';
  dbId?: string;
  /** The statement that produced `result` (or `error`): exports and "fetch more" use it. */
  sql?: string;
  /** Who ran it: the SQL tab, a table's "Preview rows", or the agent's answer. */
  origin?: RunOrigin;
  /** The preview's table, or nothing. */
  label?: string;
  /** The editor's whole text when this ran: the grid says when the editor changed since. */
  editorText?: string;
  result?: QueryResult;
  error?: { code: DowserError['code']; message: string };
  fetchingMore?: boolean;
}

export interface SemanticState {
  status: 'off' | 'loading' | 'indexing' | 'ready' | 'unavailable';
  modelId?: string;
  message?: string;
  /** 0..1 while downloading the model or embedding the columns. */
  progress?: number;
}

export interface ToolsState {
  status: 'building' | 'ready' | 'error';
  progress: ToolboxProgress | null;
  summary?: ToolsSummary;
  error?: string;
  semantic?: SemanticState;
}

export interface Notice {
  id: number;
  level: 'info' | 'warning' | 'error';
  message: string;
  /** The database it is about (shown only while that database is active); null: the whole page. */
  dbId: string | null;
}

interface AppState {
  databases: DbEntry[];
  activeId: string | null;
  sqlByDb: Record<string, string>;
  /** The question being written on each database's Ask tab (a switch must not carry it over). */
  questionByDb: Record<string, string>;
  selectedTable: string | null;
  run: RunState;
  tools: Record<string, ToolsState>;
  view: 'ask' | 'sql' | 'tools' | 'evaluate';
  /** A table's preview rows shown in the Ask view (asked for from there), until closed. */
  rowsInAsk: boolean;
  notices: Notice[];
  /** A file being fetched before it can be opened (the demo on first visit), for "Opening…". */
  fetching: string | null;
  /** Table files dropped and previewed, waiting for the person to import them (ImportDialog). */
  pendingImport: PendingImport | null;
  settings: Settings;
  /** Descriptions and notes per database *name* (two tabs of one file share them). */
  glossaries: Record<string, Glossary>;
  upsertDb(entry: DbEntry): void;
  patchDb(id: string, patch: Partial<DbEntry>): void;
  removeDb(id: string): void;
  setActive(id: string | null): void;
  setSql(id: string, sql: string): void;
  setQuestion(id: string, question: string): void;
  selectTable(name: string | null): void;
  setRun(run: RunState): void;
  setTools(dbId: string, state: ToolsState): void;
  setSemantic(dbId: string, semantic: SemanticState): void;
  setView(view: 'ask' | 'sql' | 'tools' | 'evaluate'): void;
  setRowsInAsk(shown: boolean): void;
  /**
   * A notice about `dbId`; left out, about the active database (null: about the whole page).
   * Info fades by itself (components/Notices.tsx), warnings and errors stay until dismissed.
   */
  notify(level: Notice['level'], message: string, dbId?: string | null): void;
  dismiss(id: number): void;
  setFetching(name: string | null): void;
  setPendingImport(pending: PendingImport | null): void;
  updateSettings(patch: Partial<Settings>): void;
  setGlossary(dbName: string, glossary: Glossary): void;
}

export interface PendingImport {
  files: File[];
  previews: TablePreview[];
}

let noticeId = 0;

export const useApp = create<AppState>()((setState) => ({
  databases: [],
  activeId: null,
  sqlByDb: {},
  questionByDb: {},
  selectedTable: null,
  run: { status: 'idle' },
  tools: {},
  view: 'ask',
  rowsInAsk: false,
  notices: [],
  fetching: null,
  pendingImport: null,
  settings: loadSettings(),
  glossaries: {},
  upsertDb: (entry) => setState((s) => ({ databases: [...s.databases.filter((d) => d.id !== entry.id), entry] })),
  patchDb: (id, patch) =>
    setState((s) => ({ databases: s.databases.map((d) => (d.id === id ? { ...d, ...patch } : d)) })),
  removeDb: (id) =>
    setState((s) => {
      const databases = s.databases.filter((d) => d.id !== id);
      const activeId = s.activeId === id ? (databases.find((d) => d.status === 'ready')?.id ?? null) : s.activeId;
      return {
        databases,
        activeId,
        selectedTable: s.activeId === id ? null : s.selectedTable,
        notices: s.notices.filter((n) => n.dbId !== id),
      };
    }),
  // Info about the database left behind is done with; its warnings and errors wait for its return.
  setActive: (id) =>
    setState((s) =>
      s.activeId === id
        ? {}
        : {
            activeId: id,
            selectedTable: null,
            notices: s.notices.filter((n) => !(n.level === 'info' && n.dbId !== null && n.dbId === s.activeId)),
          },
    ),
  setSql: (id, sql) => setState((s) => ({ sqlByDb: { ...s.sqlByDb, [id]: sql } })),
  setQuestion: (id, question) => setState((s) => ({ questionByDb: { ...s.questionByDb, [id]: question } })),
  selectTable: (name) => setState({ selectedTable: name }),
  setRun: (run) => setState({ run }),
  setTools: (dbId, state) =>
    setState((s) => ({
      tools: { ...s.tools, [dbId]: { ...state, semantic: state.semantic ?? s.tools[dbId]?.semantic } },
    })),
  setSemantic: (dbId, semantic) =>
    setState((s) => (s.tools[dbId] ? { tools: { ...s.tools, [dbId]: { ...s.tools[dbId], semantic } } } : {})),
  setView: (view) => setState({ view }),
  setRowsInAsk: (rowsInAsk) => setState({ rowsInAsk }),
  notify: (level, message, dbId) =>
    setState((s) => ({
      notices: [
        ...s.notices.slice(-4),
        { id: ++noticeId, level, message, dbId: dbId === undefined ? s.activeId : dbId },
      ],
    })),
  dismiss: (id) => setState((s) => ({ notices: s.notices.filter((n) => n.id !== id) })),
  setFetching: (fetching) => setState({ fetching }),
  setPendingImport: (pendingImport) => setState({ pendingImport }),
  updateSettings: (patch) =>
    setState((s) => {
      const settings = { ...s.settings, ...patch };
      saveSettings(settings);
      return { settings };
    }),
  setGlossary: (dbName, glossary) => setState((s) => ({ glossaries: { ...s.glossaries, [dbName]: glossary } })),
}));
