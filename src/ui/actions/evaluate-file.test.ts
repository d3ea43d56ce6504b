// @vitest-environment jsdom
// Evaluate's question file (issue item 11): one over the limit is refused by its size without
// being read; an accepted one is parsed by the parse worker's service, `reading` set meanwhile.

import { beforeEach, describe, expect, it, vi } from 'vitest';
import { unreadFile } from '../../test-support/unread-file';
import type { FileParsers } from '../../worker/parse-client';
import { bindServices } from '../services/current';
import { useAsk } from '../store/ask-store';
import { useEvaluate } from '../store/evaluate-store';
import { fakeServices } from '../test-support/render';
import { evaluateFile } from './evaluate';

const options = { mode: 'agent' as const, rule: 'spider' as const };

function withParser(questionFile: FileParsers['questionFile']) {
  const parseFiles: FileParsers = {
    runFile: () => Promise.reject(new Error('not this one')),
    examplesFile: () => Promise.reject(new Error('not this one')),
    questionFile: vi.fn(questionFile),
    descriptionPlan: () => Promise.reject(new Error('not this one')),
    tablePreview: () => Promise.reject(new Error('not this one')),
  };
  bindServices(fakeServices({ parseFiles }));
  return parseFiles;
}

beforeEach(() => {
  useAsk.getState().setModel({ provider: 'openai', baseUrl: 'http://localhost:8000/v1', model: 'm' });
  useEvaluate.setState({ evaluations: {} });
});

describe('evaluateFile: the question file', () => {
  it('over 5 MB is refused by its size, before a byte is read', async () => {
    const parseFiles = withParser(() => Promise.reject(new Error('must not be parsed')));
    const { file, reads } = unreadFile('dev.csv', 30_000_000);
    await evaluateFile('db1', file, options);
    expect(reads).toEqual([]);
    expect(parseFiles.questionFile).not.toHaveBeenCalled();
    expect(useEvaluate.getState().evaluations.db1).toMatchObject({
      status: 'failed',
      error: '"dev.csv" was not read: 30.0 MB, more than the 5 MB a question file may have.',
    });
  });

  it("is parsed through the parse service, `reading` until it answers; its refusal is the evaluation's error", async () => {
    let refuse: (e: Error) => void = () => {};
    const parseFiles = withParser(() => new Promise((_, reject) => (refuse = reject)));
    const file = new File(['question,sql\n'], 'dev.csv');
    const done = evaluateFile('db1', file, options);
    await vi.waitFor(() => expect(parseFiles.questionFile).toHaveBeenCalledWith(file));
    expect(useEvaluate.getState().evaluations.db1).toMatchObject({ status: 'running', reading: true });
    refuse(new Error('The file holds no questions.'));
    await done;
    expect(useEvaluate.getState().evaluations.db1).toMatchObject({
      status: 'failed',
      reading: false,
      error: 'The file holds no questions.',
    });
  });
});
