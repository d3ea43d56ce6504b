// The engine contract over HTTP (issue 36, `dowser serve`): which DbEngine methods the page may
// call on a served database, the shape of their arguments (checked on the server before any
// reaches the engine), and the serve process's own limits on rows, bytes and cell sizes.
// Opening files, exporting and anything else of the engine is not reachable: the page talks to
// one database the person chose when starting serve.

import { z } from 'zod';
import type { QueryOptions } from '../types';
import type { ToolsOptions } from '../engine';

export const SERVE_PATHS = { session: '/session', call: '/call', cancel: '/cancel' } as const;

/** The header that carries the session secret (the link's one-time token is exchanged for it). */
export const SESSION_HEADER = 'authorization';

/** Largest request body serve reads (descriptions and semantic scores are the large ones). */
export const MAX_REQUEST_BYTES = 4 * 1024 * 1024;

const sqlValue = z.union([z.null(), z.number(), z.string(), z.bigint(), z.instanceof(Uint8Array)]);
const count = z.number().int().nonnegative();

const queryOptions = z
  .object({
    maxRows: count.optional(),
    offset: count.optional(),
    params: z.array(sqlValue).max(10_000).optional(),
    maxCellChars: count.optional(),
    maxResultBytes: count.optional(),
  })
  .strict();

const descriptions = z.map(z.string(), z.map(z.string(), z.string()));

const wait = z
  .object({ waitMs: count.max(600_000).optional() })
  .strict()
  .optional();

/** Arguments after the database id, per method. */
export const SERVE_METHODS = {
  check: z.tuple([]),
  query: z.tuple([z.string().max(1_000_000), queryOptions.optional()]),
  wholeValue: z.tuple([
    z.string().max(1_000_000),
    z.object({ row: count, column: count, params: z.array(sqlValue).max(10_000).optional() }).strict(),
  ]),
  introspect: z.tuple([
    z
      .object({
        budgetMs: count.max(600_000).optional(),
        only: z.array(z.string()).max(100_000).optional(),
        maxObjects: count.optional(),
        countViews: z.boolean().optional(),
        exactRowsUpTo: count.optional(),
      })
      .strict()
      .optional(),
  ]),
  columnStats: z.tuple([z.string(), z.string(), z.object({ rowBudget: count.optional() }).strict().optional()]),
  buildTools: z.tuple([
    z
      .object({
        descriptions: descriptions.optional(),
        // The page's own budget and keeping choice are the serve machine's to decide; accepted and ignored.
        valueCellBudget: count.nullable().optional(),
        keep: z.boolean().optional(),
        embeddingModel: z.unknown().optional(),
      })
      .strict()
      .optional(),
  ]),
  callTool: z.tuple([
    z.string().max(100),
    z.unknown(),
    z
      .object({ semantic: z.instanceof(Float32Array).nullable().optional() })
      .strict()
      .optional(),
  ]),
  setDescriptions: z.tuple([descriptions]),
  linkQuestion: z.tuple([z.string().max(100_000), wait]),
  grounding: z.tuple([wait]),
} as const;

export type ServeMethod = keyof typeof SERVE_METHODS;

export const isServeMethod = (name: unknown): name is ServeMethod =>
  typeof name === 'string' && Object.hasOwn(SERVE_METHODS, name);

/** What serve allows at most, whatever the page asks (`dowser serve --max-rows`, its defaults here). */
export interface ServeLimits {
  maxRows: number;
  maxCellChars: number;
  maxResultBytes: number;
}

export const DEFAULT_SERVE_LIMITS: ServeLimits = {
  maxRows: 100_000,
  maxCellChars: 1024 * 1024,
  maxResultBytes: 128 * 1024 * 1024,
};

/** The page's query options within serve's limits (an absent one takes the engine's default, which is lower). */
export function clampQueryOptions(options: QueryOptions | undefined, limits: ServeLimits): QueryOptions {
  const o = { ...options };
  const clamp = (v: number | undefined, max: number) => (v === undefined ? undefined : Math.min(v, max));
  return {
    ...o,
    maxRows: clamp(o.maxRows, limits.maxRows),
    maxCellChars: clamp(o.maxCellChars, limits.maxCellChars),
    maxResultBytes: clamp(o.maxResultBytes, limits.maxResultBytes),
  };
}

/** The page's tool options as serve runs them: its descriptions; budget, keeping and models stay serve's. */
export function serveToolsOptions(options: ToolsOptions | undefined): ToolsOptions {
  return options?.descriptions ? { descriptions: options.descriptions } : {};
}

/** One line of a /call response (NDJSON): progress while it runs, then the result or the error. */
export type CallLine = { progress: unknown } | { result: unknown } | { error: unknown };

/** What the page learns when it exchanges the link's token. */
export interface SessionGrant {
  session: string;
  /** The served database as opened (its OpenReport, wire-encoded). */
  report: unknown;
}
