// sql.js with a handle on its WebAssembly memory. sql.js exposes no heap size, and a wasm heap
// never shrinks: after `SELECT zeroblob(1e9)` the worker keeps a gigabyte until it is replaced.
// Instantiating the module ourselves (Emscripten's `instantiateWasm` hook) gives us the memory
// object, so the transport can ask how big the heap is and restart a worker that grew too far.

import initSqlJs, { type SqlJsStatic } from 'sql.js';

export interface SqlJsRuntime {
  SQL: SqlJsStatic;
  /** Current size of SQLite's WebAssembly heap, bytes. */
  heapBytes: () => number;
  /**
   * The heap itself, as it is now (a grown heap is a new buffer): scans read text in it. Absent
   * when this realm's sql.js module was made before, without the hook (no memory is known then).
   */
  heap?: () => Uint8Array;
}

// sql.js makes its module once per JavaScript realm and hands the same one to every later call
// (the hook below then runs only the first time), so the memory is kept per realm too.
let memory: WebAssembly.Memory | undefined;

/** `instantiate` compiles sql.js's wasm with the imports it is given (fetch in the browser, a file in Node). */
export async function loadSqlJs(
  instantiate: (imports: WebAssembly.Imports) => Promise<WebAssembly.Instance>,
): Promise<SqlJsRuntime> {
  const SQL = await initSqlJs({
    instantiateWasm(imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance) => void) {
      void instantiate(imports).then((instance) => {
        memory = Object.values(instance.exports).find((v): v is WebAssembly.Memory => v instanceof WebAssembly.Memory);
        done(instance);
      });
      return {};
    },
  } as Parameters<typeof initSqlJs>[0]);
  // One view, remade only when the memory grew: growing detaches the old buffer, and a view of
  // a detached buffer has length 0 (a scan asks for the view once a text cell; the `buffer`
  // getter costs more than that check).
  let view = new Uint8Array(0);
  const heap = (m: WebAssembly.Memory) => () => {
    if (view.byteLength === 0) view = new Uint8Array(m.buffer);
    return view;
  };
  return {
    SQL,
    heapBytes: () => memory?.buffer.byteLength ?? 0,
    heap: memory ? heap(memory) : undefined,
  };
}
