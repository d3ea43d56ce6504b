// The worker side of scripts/measure-text-worker.ts: long texts counted and tokenized into their
// own vocabulary and postings, as ValueIndexBuilder does on the engine's thread.
import { parentPort } from 'node:worker_threads';
import { PostingsBuilder } from '../src/core/retrieval/value-postings';
import { TextCounter } from '../src/core/retrieval/value-store';
import { Vocabulary } from '../src/core/retrieval/value-vocab';

interface Batch {
  type: 'batch';
  texts: string[];
  rowids: number[];
  cols: number[];
}
/** Short values seen for the first time, in value-id order (the third mode of the script). */
interface Values {
  type: 'values';
  values: string[];
}

const vocab = new Vocabulary();
const texts = new TextCounter();
const postings = new PostingsBuilder();
const valuePostings = new PostingsBuilder();
let busy = 0;
parentPort!.on('message', (m: Batch | Values | { type: 'finish' }) => {
  const t0 = performance.now();
  if (m.type === 'values') {
    for (const v of m.values) valuePostings.addDocument(vocab.terms, vocab.tokenize(v));
    busy += performance.now() - t0;
    return;
  }
  if (m.type === 'batch') {
    for (let i = 0; i < m.texts.length; i++)
      if (texts.add(m.texts[i], m.rowids[i], m.cols[i]) >= 0)
        postings.addDocument(vocab.terms, vocab.tokenize(m.texts[i]));
    busy += performance.now() - t0;
    return;
  }
  texts.freeze();
  const done = postings.finish(vocab.size);
  valuePostings.finish(vocab.size);
  busy += performance.now() - t0;
  parentPort!.postMessage({ busy, words: vocab.words, documents: done.documentCount });
});
