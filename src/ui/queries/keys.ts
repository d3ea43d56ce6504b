// Every react-query key of the page, named once (the queries that fill them are in index.ts).

export const queryKeys = {
  schema: (dbId: string) => ['schema', dbId] as const,
  /** Every statistics entry of one database (for removal on close). */
  statsOf: (dbId: string) => ['stats', dbId] as const,
  stats: (dbId: string, table: string, column: string) => ['stats', dbId, table, column] as const,
  history: (dbName: string) => ['history', dbName] as const,
  examples: (dbName: string) => ['examples', dbName] as const,
  recent: () => ['recent'] as const,
  links: (dbId: string, question: string) => ['links', dbId, question] as const,
};
