// Browser Web Worker entry: parses the files the person imports (a saved run, an Evaluate
// question file, description CSVs) off the page's thread (parse-api.ts). Transport only.

import '../core/security/zod-jitless';
import * as Comlink from 'comlink';
import { parseApi } from './parse-api';

Comlink.expose(parseApi);
