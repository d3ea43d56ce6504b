// The time limit of one query (and of one tool call) unless the person sets another: the page's
// setting, the CLI's --timeout, the worker transport and the server engines all start from it.
export const DEFAULT_QUERY_TIMEOUT_MS = 10_000;
