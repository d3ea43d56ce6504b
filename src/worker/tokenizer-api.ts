// What a tokenizing worker exposes (browser and Node entries alike): ValueIndexBuilder's
// TokenizerPort on the other side of a message channel. The parts go back transferred.

import * as Comlink from 'comlink';
import { type ByteBatch, transferablesOf, ValueTokenizer } from '../core/retrieval/value-tokenizer';

export function tokenizerApi() {
  const tokenizer = new ValueTokenizer();
  return {
    addValues(batch: ByteBatch): void {
      tokenizer.addValues(batch);
    },
    addTexts(batch: ByteBatch): void {
      tokenizer.addTexts(batch);
    },
    finish() {
      const parts = tokenizer.finish();
      return Comlink.transfer(parts, transferablesOf(parts));
    },
  };
}

export type TokenizerApi = ReturnType<typeof tokenizerApi>;
