// Imported first by the page and its workers: zod would otherwise probe `new Function("")` to
// decide whether to compile fast parsers, and under the page's Content-Security-Policy (no
// eval) that probe is reported as a violation on every load. Parsing works the same without it.

import { z } from 'zod';

z.config({ jitless: true });
