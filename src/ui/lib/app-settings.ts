// The page's settings as saved in localStorage: parsed with zod, never spread in unchecked.
// Saved as `{ version: 2, settings }`; the unversioned object earlier builds saved is migrated.
// A field that does not parse falls back to its default alone, so one bad value (a hand edit,
// an old build) never resets the rest.

import { z } from 'zod';
import { readJson, writeJson } from './storage';
import { ANSWER_MODES, DEFAULT_ANSWER_MODE, type AnswerMode } from '../../core/agent/answer-mode';
import { READ_CHOICES, type ReadChoice } from '../../core/db/file-check';
import { DEFAULT_VALUE_CELL_BUDGET } from '../../core/retrieval/distinct-values';
import { answerLimits, DEFAULT_ANSWER_TIME_MS, type AnswerLimits } from '../../core/agent/answer-budget';
import { DEFAULT_MODEL_WAIT_MS, streamLimits, type StreamLimits } from '../../core/llm/stream-guard';

export interface Settings {
  queryTimeoutMs: number;
  /** Longest wait for the model's reply to begin, and between its pieces (core/llm/stream-guard.ts). */
  modelWaitMs: number;
  /** Time limit of one answer, the person's own time not counted (core/agent/answer-budget.ts). */
  answerTimeMs: number;
  pageSize: number;
  rememberFiles: boolean;
  /** Embedding model for semantic column search; '' turns it off. */
  embeddingModel: string;
  /** May the model be downloaded from the Hugging Face hub (else only self-hosted under /models/)? */
  embeddingDownload: boolean;
  /** The agent stops after its plan until the person presses Continue. */
  pauseAfterPlan: boolean;
  /** CSV downloads put `'` before cells a spreadsheet would run as formulas. */
  protectCsvFormulas: boolean;
  /** In the SQL editor, Enter accepts a suggestion too (else Enter is always a new line; Tab accepts). */
  enterAcceptsSuggestion: boolean;
  /** How questions are answered: Auto, the agent or Direct (core/agent/answer-mode.ts). */
  answerMode: AnswerMode;
  /** The results grid shows numbers with the browser's digit grouping, or as stored. */
  numberFormat: 'locale' | 'raw';
  /** A SQLite file is copied into memory, or read from the file as needed; `auto` by size (issue 26). */
  readDatabases: ReadChoice;
  /** The value index's memory budget: the default, a larger one, or none (issue 26). */
  indexBudget: IndexBudget;
  /** A file's search indexes are kept in this browser for its next opening (issue 26). */
  keepIndexes: boolean;
}

export type IndexBudget = 'default' | 'large' | 'none';

/** Text cells the value index may hold for each choice (undefined: the engine's default). */
export function valueCellBudgetOf(choice: IndexBudget): number | null | undefined {
  return choice === 'none' ? null : choice === 'large' ? 4 * DEFAULT_VALUE_CELL_BUDGET : undefined;
}

/** The wait limits of the model's requests, with the setting that raises them. */
export function streamLimitsOf(s: Pick<Settings, 'modelWaitMs'>): StreamLimits {
  return streamLimits(s.modelWaitMs, 'raise "Wait for the model" in Settings');
}

/** The budget of one answer, with the setting that raises its time. */
export function answerLimitsOf(s: Pick<Settings, 'answerTimeMs'>): AnswerLimits {
  return answerLimits(s.answerTimeMs, 'raise "Time limit of an answer" in Settings');
}

export const DEFAULT_SETTINGS: Settings = {
  queryTimeoutMs: 10_000,
  modelWaitMs: DEFAULT_MODEL_WAIT_MS,
  answerTimeMs: DEFAULT_ANSWER_TIME_MS,
  pageSize: 1000,
  rememberFiles: false,
  embeddingModel: 'Xenova/all-MiniLM-L6-v2',
  // Off: the model loads from the app's own folder; the hub is contacted only when the person allows it.
  embeddingDownload: false,
  pauseAfterPlan: false,
  protectCsvFormulas: true,
  enterAcceptsSuggestion: false,
  answerMode: DEFAULT_ANSWER_MODE,
  numberFormat: 'locale',
  readDatabases: 'auto',
  indexBudget: 'default',
  keepIndexes: true,
};

export const SETTINGS_KEY = 'dowser.settings';
export const SETTINGS_VERSION = 2;

/** A hub id (`owner/name`) or a folder name under /models/: no URL, no `..`, nothing to escape. */
const MODEL_ID = /^(?!.*\.\.)[A-Za-z0-9][\w.-]{0,95}(\/[A-Za-z0-9][\w.-]{0,95})?$/;

const d = DEFAULT_SETTINGS;
const fields = z.object({
  queryTimeoutMs: z.number().int().min(1000).max(600_000).catch(d.queryTimeoutMs),
  modelWaitMs: z.number().int().min(1000).max(3_600_000).catch(d.modelWaitMs),
  answerTimeMs: z.number().int().min(60_000).max(86_400_000).catch(d.answerTimeMs),
  pageSize: z.number().int().min(10).max(100_000).catch(d.pageSize),
  rememberFiles: z.boolean().catch(d.rememberFiles),
  embeddingModel: z
    .string()
    .refine((s) => s === '' || MODEL_ID.test(s))
    .catch(d.embeddingModel),
  embeddingDownload: z.boolean().catch(d.embeddingDownload),
  pauseAfterPlan: z.boolean().catch(d.pauseAfterPlan),
  protectCsvFormulas: z.boolean().catch(d.protectCsvFormulas),
  enterAcceptsSuggestion: z.boolean().catch(d.enterAcceptsSuggestion),
  answerMode: z.enum(ANSWER_MODES).catch(d.answerMode),
  numberFormat: z.enum(['locale', 'raw']).catch(d.numberFormat),
  readDatabases: z.enum(READ_CHOICES).catch(d.readDatabases),
  indexBudget: z.enum(['default', 'large', 'none']).catch(d.indexBudget),
  keepIndexes: z.boolean().catch(d.keepIndexes),
});

const stored = z.object({ version: z.literal(SETTINGS_VERSION), settings: z.unknown() });

/** Any fields missing or unreadable take their defaults. */
export function parseSettings(value: unknown): Settings {
  const object = value && typeof value === 'object' && !Array.isArray(value) ? value : {};
  return { ...DEFAULT_SETTINGS, ...fields.parse({ ...DEFAULT_SETTINGS, ...object }) };
}

/**
 * Version 1 (no `version` field) was the settings object itself. Every build saved the whole
 * object, so `embeddingDownload: true` there is usually the old default rather than a choice:
 * it is dropped, and the hub stays off until the person allows it again.
 */
export function migrateSettings(value: unknown): Settings {
  const parsed = stored.safeParse(value);
  if (parsed.success) return parseSettings(parsed.data.settings);
  if (value && typeof value === 'object' && !('version' in value)) {
    const { embeddingDownload: _dropped, ...rest } = value as Record<string, unknown>;
    return parseSettings(rest);
  }
  return DEFAULT_SETTINGS; // a newer or unknown version: defaults, and the next save rewrites it
}

export function loadSettings(): Settings {
  return migrateSettings(readJson('local', SETTINGS_KEY));
}

export function saveSettings(settings: Settings): void {
  writeJson('local', SETTINGS_KEY, { version: SETTINGS_VERSION, settings });
}
