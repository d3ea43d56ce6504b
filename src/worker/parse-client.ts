// The page's side of the parse worker: one worker, started with the first import and kept for the
// next. A parser's refusal comes back as an Error with its message; a worker that dies mid-parse
// (out of memory on a huge file) ends the call with a readable error and is started anew next time.

import * as Comlink from 'comlink';
import type { ImportPlan, SchemaNames } from '../core/descriptions/import';
import type { QuestionPair } from '../core/eval/question-file';
import type { ExamplesFile } from '../core/examples/examples';
import type { ExportableRun } from '../core/export/run-export';
import type { PreviewOptions, TablePreview } from '../core/import/table-preview';
import type { ParseApi, Parsed } from './parse-api';

/** Imported files parsed by core's parsers, each refusal thrown as an Error with its message. */
export interface FileParsers {
  runFile(file: Blob): Promise<ExportableRun>;
  examplesFile(file: Blob): Promise<ExamplesFile>;
  questionFile(file: File): Promise<QuestionPair[]>;
  descriptionPlan(schema: SchemaNames, files: File[]): Promise<ImportPlan>;
  tablePreview(file: File, options?: PreviewOptions): Promise<TablePreview>;
}

type Calls = { [K in keyof ParseApi]: (...args: Parameters<ParseApi[K]>) => ReturnType<ParseApi[K]> };

async function unwrap<T>(outcome: Promise<Parsed<T>>): Promise<T> {
  const r = await outcome;
  if (!r.ok) throw new Error(r.message);
  return r.value;
}

/** FileParsers over the parse calls: the worker's in the page, `parseApi` itself in tests. */
export function fileParsers(calls: Calls): FileParsers {
  return {
    runFile: (file) => unwrap(calls.runFile(file)),
    examplesFile: (file) => unwrap(calls.examplesFile(file)),
    questionFile: (file) => unwrap(calls.questionFile(file)),
    descriptionPlan: (schema, files) => unwrap(calls.descriptionPlan(schema, files)),
    tablePreview: (file, options = {}) => unwrap(calls.tablePreview(file, options)),
  };
}

export function createParseWorker(): FileParsers {
  let worker: Worker | null = null;
  let remote: Comlink.Remote<ParseApi> | null = null;
  async function call<T>(use: (api: Comlink.Remote<ParseApi>) => Promise<Parsed<T>>): Promise<Parsed<T>> {
    if (!worker || !remote) {
      worker = new Worker(new URL('./parse.worker.ts', import.meta.url), { type: 'module', name: 'dowser-parse' });
      remote = Comlink.wrap<ParseApi>(worker);
    }
    const w = worker;
    let onError = () => {};
    // A worker that dies would leave the call waiting forever (a Comlink call never settles then).
    const died = new Promise<never>((_, reject) => {
      onError = () =>
        reject(new Error('The file could not be read: the page ran out of memory or the reader stopped.'));
      w.addEventListener('error', onError, { once: true });
    });
    try {
      return await Promise.race([use(remote), died]);
    } catch (e) {
      w.terminate();
      if (worker === w) worker = remote = null;
      throw e;
    } finally {
      w.removeEventListener('error', onError);
    }
  }
  return fileParsers({
    runFile: (file) => call((api) => api.runFile(file)),
    examplesFile: (file) => call((api) => api.examplesFile(file)),
    questionFile: (file) => call((api) => api.questionFile(file)),
    descriptionPlan: (schema, files) => call((api) => api.descriptionPlan(schema, files)),
    tablePreview: (file, options) => call((api) => api.tablePreview(file, options)),
  });
}
