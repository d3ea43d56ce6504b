// @vitest-environment jsdom
// Importing confirmed examples from a file (issue 28, item 11): a file over the limit is refused by
// its size without being read; an accepted one is parsed by the parse worker's service, not on the
// page's thread.

import { beforeEach, describe, expect, it, vi } from 'vitest';
import { examplesFromJson, examplesToJson } from '../../core/examples/examples';
import { unreadFile } from '../../test-support/unread-file';
import type { FileParsers } from '../../worker/parse-client';
import { bindServices } from '../services/current';
import { useApp } from '../store/app-store';
import { fakeServices } from '../test-support/render';
import { importExamples } from './examples';

const notices = () => useApp.getState().notices.map((n) => `${n.level}: ${n.message}`);

function withParser(examplesFile: FileParsers['examplesFile']) {
  const saved: unknown[] = [];
  const parseFiles: FileParsers = {
    runFile: () => Promise.reject(new Error('not this one')),
    examplesFile: vi.fn(examplesFile),
    questionFile: () => Promise.reject(new Error('not this one')),
    descriptionPlan: () => Promise.reject(new Error('not this one')),
    tablePreview: () => Promise.reject(new Error('not this one')),
  };
  const services = fakeServices({
    parseFiles,
    examples: {
      list: async () => [],
      save: async (_db: string, list: unknown[]) => {
        saved.push(...list);
        return null;
      },
    },
    engine: { query: async () => ({ columns: [], rows: [], truncated: false }) },
  } as unknown as Parameters<typeof fakeServices>[0]);
  bindServices(services);
  return { parseFiles, saved };
}

beforeEach(() => useApp.setState({ notices: [] }));

describe('importing examples from a file', () => {
  it('refuses a file over 50 MB by its size, without reading it or starting the parser', async () => {
    const { parseFiles } = withParser(() => Promise.reject(new Error('must not parse')));
    const { file, reads } = unreadFile('examples.json', 60_000_000);
    await importExamples('db', 'demo.sqlite', file);
    expect(reads).toEqual([]);
    expect(parseFiles.examplesFile).not.toHaveBeenCalled();
    expect(notices().join('\n')).toMatch(/60\.0 MB; example files up to 50 MB/);
  });

  it('parses an accepted file with the parse service and imports its examples for review', async () => {
    const text = examplesToJson('demo.sqlite', [
      {
        id: 'a',
        question: 'How many orders?',
        sql: 'SELECT count(*) FROM orders',
        savedAt: 't',
        plan: null,
        source: 'user',
      },
    ]);
    const file = new File([text], 'examples.json');
    const { parseFiles, saved } = withParser(async () => examplesFromJson(text));
    await importExamples('db', 'demo.sqlite', file);
    expect(parseFiles.examplesFile).toHaveBeenCalledWith(file);
    expect(saved).toHaveLength(1);
    expect(notices().join('\n')).toContain('Imported 1 example from "examples.json"');
  });
});
