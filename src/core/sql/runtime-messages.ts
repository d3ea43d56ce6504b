// The words SQLite's messages are made of when a statement fails while reading rows (not while
// compiling): integer overflow, malformed JSON, bad JSON path, string or blob too big, the FTS and
// window-function argument checks… Taken from the message texts in SQLite's source (the strings
// of sql.js's build: `strings node_modules/sql.js/dist/sql-wasm.wasm`). Such a message's own
// words tell a model what went wrong; the text after them (a path, a MATCH expression) can be a
// cell value, so privacy treats it as one (tools/quote-data.ts `errorData`). A word not listed
// here only makes more of a message count as data.

export const SQLITE_RUNTIME_WORDS: ReadonlySet<string> = new Set(
  `
  a an and argument arguments array as at bad be between big blob blobs by cannot character
  column columns constant constraint context database datatype deep depth disk domain error
  escape even expression failed fraction fts fts3 fts4 fts5 function group hold image in integer
  interrupted invalid is json jsonb labels large length malformed match matchinfo maximum memory
  mismatch must near needs negative nested non not nth nth_value ntile number object odd of
  offset out overflow parameter path percentile positive query range request requested
  requires second single special starting ending string syntax text the to too tree type
  unicode unknown unrecognized use value values window with wrong logic sql
  `
    .trim()
    .split(/\s+/),
);
