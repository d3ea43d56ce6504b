// Comlink's default error serialisation keeps only message/name/stack; our typed error codes
// must survive the trip so the page can show "timeout" or "read_only" the same way the CLI does.
// Imported for its side effect on both sides of every worker.

import { transferHandlers, type TransferHandler } from 'comlink';
import { DowserError, toDowserError } from '../core/errors';

interface SerializedError {
  code: string;
  message: string;
  detail?: string;
  quotesData?: boolean;
}

// Comlink wraps a thrown value as `{ value, [Symbol('Comlink.thrown')]: 0 }` and asks the
// handler registered as 'throw' to carry it.
const isThrown = (v: unknown): v is { value: unknown } =>
  typeof v === 'object' &&
  v !== null &&
  Object.getOwnPropertySymbols(v).some((s) => s.description === 'Comlink.thrown');

const throwHandler: TransferHandler<{ value: unknown }, SerializedError> = {
  canHandle: isThrown,
  serialize({ value }) {
    const err = toDowserError(value);
    return [{ code: err.code, message: err.message, detail: err.detail, quotesData: err.quotesData }, []];
  },
  deserialize(s) {
    throw new DowserError(s.code as DowserError['code'], s.message, s.detail, s.quotesData);
  },
};

transferHandlers.set('throw', throwHandler as TransferHandler<unknown, unknown>);
