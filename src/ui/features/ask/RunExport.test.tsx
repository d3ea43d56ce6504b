// @vitest-environment jsdom
// Opening a saved run (issue item 11): a file over the limit is refused by its size without being
// read; an accepted one is parsed by the parse worker's service, "Reading…" shown meanwhile.

import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExportableRun } from '../../../core/export/run-export';
import { unreadFile } from '../../../test-support/unread-file';
import { useApp } from '../../store/app-store';
import { useAsk } from '../../store/ask-store';
import { fakeServices, renderWithServices } from '../../test-support/render';
import type { FileParsers } from '../../../worker/parse-client';
import { ImportRunButton } from './RunExport';

const RUN: ExportableRun = {
  question: 'How many pets?',
  hints: '',
  dbName: 'tiny.sqlite',
  provider: 'openai',
  model: 'm',
  status: 'done',
  startedAt: 1,
  endedAt: 2,
  events: [{ type: 'thought', text: 'Count them.', step: 1, at: 1 }],
};

const pick = (file: File) => fireEvent.change(screen.getByTestId('run-import'), { target: { files: [file] } });
const lastNotice = () => useApp.getState().notices.at(-1);

function render(runFile: FileParsers['runFile']) {
  const parseFiles: FileParsers = {
    runFile: vi.fn(runFile),
    examplesFile: () => Promise.reject(new Error('not this one')),
    questionFile: () => Promise.reject(new Error('not this one')),
    descriptionPlan: () => Promise.reject(new Error('not this one')),
    tablePreview: () => Promise.reject(new Error('not this one')),
  };
  renderWithServices(<ImportRunButton dbId="db1" />, fakeServices({ parseFiles }));
  return parseFiles;
}

beforeEach(() => {
  useApp.setState({ notices: [] });
  useAsk.setState({ runs: {}, threads: {} });
});
afterEach(cleanup);

describe('ImportRunButton', () => {
  it('refuses a file over 50 MB by its size, before reading a byte', () => {
    const parseFiles = render(() => Promise.reject(new Error('must not be parsed')));
    const { file, reads } = unreadFile('huge.json', 62_345_678);
    pick(file);
    expect(reads).toEqual([]);
    expect(parseFiles.runFile).not.toHaveBeenCalled();
    expect(lastNotice()).toMatchObject({
      level: 'error',
      message: 'Could not open "huge.json": 62.3 MB, more than the 50 MB a run file may have.',
    });
  });

  it('parses an accepted file through the parse service, showing "Reading…" until it is done', async () => {
    let resolve: (run: ExportableRun) => void = () => {};
    const parseFiles = render(() => new Promise((r) => (resolve = r)));
    const file = new File(['{}'], 'run.json');
    pick(file);
    const button = await screen.findByRole('button', { name: 'Reading the run file…' });
    expect(button).toHaveProperty('disabled', true);
    expect(parseFiles.runFile).toHaveBeenCalledWith(file);
    resolve(RUN);
    await screen.findByRole('button', { name: 'open a saved run (a .json from Export)' });
    expect(useAsk.getState().runs.db1).toMatchObject({ question: 'How many pets?', imported: true });
  });

  it("a file the parser refuses ends in a notice with the parser's reason", async () => {
    render(() => Promise.reject(new Error('This file is not JSON.')));
    pick(new File(['{'], 'bad.json'));
    await waitFor(() =>
      expect(lastNotice()).toMatchObject({
        level: 'error',
        message: 'Could not open "bad.json": This file is not JSON.',
      }),
    );
    expect(useAsk.getState().runs.db1).toBeUndefined();
  });
});
