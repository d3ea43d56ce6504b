// Worked runs on databases this project made up (a lending library, bike rentals), never on
// Spider or BIRD, so no benchmark answer leaks into the prompt. Each shows the process — plan,
// search_value, find_shortest_path, execute_sql, done — and the second also a hint and two keys
// to the same table (a join on the column the question means). They are
// sent with every request of a run, so they are short: databases in the prompt's column listing,
// observations cut to the lines that matter, and `done` naming the SQL with an explanation of
// the rows just seen (so no further request is needed to explain them).

export interface ExemplarCall {
  action: { name: string; args: Record<string, unknown> };
  /** Absent on the closing `done`. */
  observation?: string;
}

export interface ExemplarStep extends ExemplarCall {
  thought: string;
  /** Calls made in the same turn (native tool calling), each with its observation. */
  alongside?: ExemplarCall[];
}

export interface Exemplar {
  title: string;
  /** The database as the prompt lists it (compact column listing). */
  summary: string;
  question: string;
  hints?: string;
  steps: ExemplarStep[];
}

const LIBRARY_SQL =
  "SELECT count(*) FROM authors JOIN books ON books.author_id = authors.author_id JOIN loans ON loans.book_id = books.book_id WHERE authors.name = 'Ursula K. Le Guin'";

const library: Exemplar = {
  title: 'a library',
  summary: [
    'authors(author_id int pk, name text)',
    'books(book_id int pk, author_id int → authors.author_id)',
    'loans(loan_id int pk, book_id int → books.book_id)',
  ].join('\n'),
  question: 'How many loans were of books by Ursula Le Guin?',
  steps: [
    {
      thought: 'The author, then the loans of her books.',
      action: {
        name: 'submit_plan',
        args: {
          sub_questions: [
            { text: 'Who is Ursula Le Guin?', tables: [{ table: 'authors', columns: ['name'] }] },
            { text: 'How many loans of her books?', tables: [{ table: 'loans', columns: ['book_id'] }] },
          ],
        },
      },
      observation: 'Plan recorded.',
    },
    {
      thought: 'How is the name stored?',
      action: { name: 'search_value', args: { query: 'Ursula Le Guin' } },
      observation: '"Ursula K. Le Guin" in authors.name (1 row, fuzzy)',
    },
    {
      thought: 'Now the joins.',
      action: { name: 'find_shortest_path', args: { start: 'authors', end: 'loans' } },
      observation:
        'authors -> books -> loans: FROM authors JOIN books ON books.author_id = authors.author_id JOIN loans ON loans.book_id = books.book_id',
    },
    {
      thought: 'Count, with the stored name.',
      action: {
        name: 'execute_sql',
        args: {
          sql: LIBRARY_SQL,
        },
      },
      observation: 'Columns: "count(*)"\n57',
    },
    {
      thought: 'Answered.',
      action: {
        name: 'done',
        args: {
          sql: LIBRARY_SQL,
          explanation: 'Books by Ursula K. Le Guin were lent 57 times.',
        },
      },
    },
  ],
};

const BIKES_SQL =
  "SELECT avg(duration_s / 60.0) FROM stations JOIN trips ON trips.start_station = stations.station_id WHERE name = 'Harbour Front' AND started_at LIKE '2023-07%'";
const BIKES_EXPLANATION = 'Trips that started at Harbour Front in July 2023 lasted 18.4 minutes on average.';
const BIKES_PLAN = {
  sub_questions: [
    {
      text: 'Average length of trips from Harbour Front in July 2023',
      tables: [
        { table: 'stations', columns: ['name'] },
        { table: 'trips', columns: ['start_station', 'duration_s'] },
      ],
    },
  ],
};

const bikes: Exemplar = {
  title: 'bike rentals',
  summary: [
    'stations(station_id int pk, name text)',
    'trips(start_station int → stations.station_id, end_station int → stations.station_id, started_at datetime, duration_s int)',
  ].join('\n'),
  question: 'Average trip length from Harbour Front in July 2023?',
  hints: 'trip length = duration_s / 60',
  steps: [
    {
      thought: 'One step: the trips that started there.',
      action: {
        name: 'submit_plan',
        args: BIKES_PLAN,
      },
      observation: 'Plan recorded.',
    },
    {
      thought: 'How is the station name stored?',
      action: { name: 'search_value', args: { query: 'harbour front' } },
      observation: '"Harbour Front" in stations.name (1 row, case)',
    },
    {
      thought: '"From" means start_station, not end_station.',
      action: { name: 'find_shortest_path', args: { start: 'stations', end: 'trips.start_station' } },
      observation: 'stations -> trips: FROM stations JOIN trips ON trips.start_station = stations.station_id',
    },
    {
      thought: 'Minutes, per the hint.',
      action: {
        name: 'execute_sql',
        args: {
          sql: BIKES_SQL,
        },
      },
      observation: 'Columns: "avg(duration_s / 60.0)"\n18.4',
    },
    { thought: 'Answered.', action: { name: 'done', args: { sql: BIKES_SQL, explanation: BIKES_EXPLANATION } } },
  ],
};

/** The text protocol shows both (its format must be learned from them). */
export const EXEMPLARS: readonly Exemplar[] = [library, bikes];

/**
 * Native tool calling: the API carries the call format, so one example shows the process: the
 * plan and the value lookup in one turn, then done with the SQL — the join on the column the
 * question means (the keys shown give it) and the hint applied — which is run and checked without
 * a turn spent on execute_sql. It is sent with every request, so it is the shortest that shows it.
 */
export const NATIVE_EXEMPLARS: readonly Exemplar[] = [
  {
    ...bikes,
    steps: [
      {
        thought: 'One step: the trips that started there. How is the station name stored?',
        action: { name: 'submit_plan', args: BIKES_PLAN },
        observation: 'Plan recorded.',
        alongside: [
          {
            action: { name: 'search_value', args: { query: 'harbour front' } },
            observation: '"Harbour Front" in stations.name (1 row, case)',
          },
        ],
      },
      {
        thought: '"From" means start_station, not end_station; minutes, per the hint.',
        action: { name: 'done', args: { sql: BIKES_SQL } },
      },
    ],
  },
];

/** An exemplar as a transcript: calls always written `Action: name {json}` on one line. */
export function renderExemplar(e: Exemplar, n: number): string {
  const lines = [`Example ${n} (${e.title}):`, e.summary, `Question: ${JSON.stringify(e.question)}`];
  if (e.hints) lines.push(`Hints: ${JSON.stringify(e.hints)}`);
  for (const s of e.steps) {
    const calls = [s, ...(s.alongside ?? [])];
    lines.push(
      `Thought: ${s.thought}`,
      ...calls.map((c) => `Action: ${c.action.name} ${JSON.stringify(c.action.args)}`),
    );
    for (const c of calls) if (c.observation !== undefined) lines.push(`Observation: ${c.observation}`);
  }
  return lines.join('\n');
}
