// Browser Web Worker entry, started by the database worker for a large database: tokenizes the
// values the database worker reads (decision 014). Transport only.

import * as Comlink from 'comlink';
import { tokenizerApi } from './tokenizer-api';

Comlink.expose(tokenizerApi());
