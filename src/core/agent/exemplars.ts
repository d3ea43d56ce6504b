// Two worked runs on databases this project made up (a lending library, a bike-rental scheme),
// never on Spider or BIRD, so no benchmark answer leaks into the prompt. Each shows the whole
// process once: plan -> search_value -> find_shortest_path -> execute_sql -> done. The
// observations are written the way the real tools write them.

export interface ExemplarStep {
  thought: string;
  action: { name: string; args: Record<string, unknown> };
  /** Absent on the closing `done`. */
  observation?: string;
}

export interface Exemplar {
  title: string;
  summary: string;
  question: string;
  hints?: string;
  steps: ExemplarStep[];
}

const library: Exemplar = {
  title: 'a lending library',
  summary: [
    'table | primary key | foreign keys | rows',
    'authors | author_id | - | 412',
    'books | book_id | author_id -> authors.author_id | 3120',
    'members | member_id | - | 980',
    'loans | loan_id | book_id -> books.book_id; member_id -> members.member_id | 15408',
  ].join('\n'),
  question: 'How many loans were made of books written by Ursula Le Guin?',
  steps: [
    {
      thought: 'I need the author, her books and the loans of those books.',
      action: {
        name: 'submit_plan',
        args: {
          sub_questions: [
            { text: 'Which author is Ursula Le Guin?', tables: [{ table: 'authors', columns: ['author_id', 'name'] }] },
            { text: 'Which books did she write?', tables: [{ table: 'books', columns: ['book_id', 'author_id'] }] },
            {
              text: 'How many loans are of those books?',
              tables: [{ table: 'loans', columns: ['loan_id', 'book_id'] }],
            },
          ],
        },
      },
      observation:
        'Plan recorded (3 sub-questions).\nAll tables and columns exist. Next: locate values and columns, find join paths, execute SQL.',
    },
    {
      thought: 'The name may be stored in another form; I look it up.',
      action: { name: 'search_value', args: { query: 'Ursula Le Guin', table: 'authors' } },
      observation:
        'Values matching "Ursula Le Guin" in authors.*, best first:\n"Ursula K. Le Guin" in authors.name (1 row, fuzzy)',
    },
    {
      thought: 'The stored spelling is "Ursula K. Le Guin". Now the joins from authors to loans.',
      action: { name: 'find_shortest_path', args: { start: 'authors', end: 'loans' } },
      observation:
        'One shortest join path from authors to loans (2 joins):\n1. authors -> books -> loans\n   FROM authors JOIN books ON books.author_id = authors.author_id JOIN loans ON loans.book_id = books.book_id',
    },
    {
      thought: 'I count the loans with the exact stored name.',
      action: {
        name: 'execute_sql',
        args: {
          sql: "SELECT count(*) AS loans FROM authors JOIN books ON books.author_id = authors.author_id JOIN loans ON loans.book_id = books.book_id WHERE authors.name = 'Ursula K. Le Guin'",
        },
      },
      observation: 'Columns: loans\n57\n(1 row)\nTook 3 ms.',
    },
    {
      thought: 'The count answers the question.',
      action: {
        name: 'done',
        args: {
          sql: "SELECT count(*) AS loans FROM authors JOIN books ON books.author_id = authors.author_id JOIN loans ON loans.book_id = books.book_id WHERE authors.name = 'Ursula K. Le Guin'",
        },
      },
    },
  ],
};

const bikes: Exemplar = {
  title: 'a bike-rental scheme',
  summary: [
    'table | primary key | foreign keys | rows',
    'stations | station_id | - | 64',
    'bikes | bike_id | home_station -> stations.station_id | 850',
    'trips | trip_id | bike_id -> bikes.bike_id; start_station -> stations.station_id; end_station -> stations.station_id | 120533',
  ].join('\n'),
  question: 'What was the average length of trips that started at the harbour station in July 2023?',
  hints: 'length of a trip = duration_s / 60 in minutes',
  steps: [
    {
      thought: 'I need the harbour station and the trips starting there in July 2023.',
      action: {
        name: 'submit_plan',
        args: {
          sub_questions: [
            {
              text: 'Which station is the harbour station?',
              tables: [{ table: 'stations', columns: ['station_id', 'name'] }],
            },
            {
              text: 'Which trips started there in July 2023, and how long were they?',
              tables: [{ table: 'trips', columns: ['start_station', 'started_at', 'duration_s'] }],
            },
          ],
        },
      },
      observation:
        'Plan recorded (2 sub-questions).\nAll tables and columns exist. Next: locate values and columns, find join paths, execute SQL.',
    },
    {
      thought: 'I look up how the station name is stored.',
      action: { name: 'search_value', args: { query: 'harbour', table: 'stations', column: 'name' } },
      observation:
        'Values matching "harbour" in stations.name, best first:\n"Harbour Front" in stations.name (1 row, prefix)\n"Old Harbour Rd" in stations.name (1 row, fuzzy)',
    },
    {
      thought: '"Harbour Front" is the harbour station. trips has two keys to stations; I check which join to use.',
      action: { name: 'find_shortest_path', args: { start: 'stations', end: 'trips.start_station' } },
      observation:
        'One shortest join path from stations to trips.start_station (1 join):\n1. stations -> trips\n   FROM stations JOIN trips ON trips.start_station = stations.station_id',
    },
    {
      thought: 'Average minutes per the hint, July 2023 by the start time.',
      action: {
        name: 'execute_sql',
        args: {
          sql: "SELECT avg(trips.duration_s / 60.0) AS avg_minutes FROM stations JOIN trips ON trips.start_station = stations.station_id WHERE stations.name = 'Harbour Front' AND trips.started_at >= '2023-07-01' AND trips.started_at < '2023-08-01'",
        },
      },
      observation: 'Columns: avg_minutes\n18.4\n(1 row)\nTook 41 ms.',
    },
    {
      thought: 'One number, in minutes, as asked.',
      action: {
        name: 'done',
        args: {
          sql: "SELECT avg(trips.duration_s / 60.0) AS avg_minutes FROM stations JOIN trips ON trips.start_station = stations.station_id WHERE stations.name = 'Harbour Front' AND trips.started_at >= '2023-07-01' AND trips.started_at < '2023-08-01'",
        },
      },
    },
  ],
};

export const EXEMPLARS: readonly Exemplar[] = [library, bikes];

/** An exemplar as a transcript: calls always written `Action: name {json}` on one line. */
export function renderExemplar(e: Exemplar, n: number): string {
  const lines = [`### Example ${n}: ${e.title}`, 'Database:', e.summary, `Question: ${JSON.stringify(e.question)}`];
  if (e.hints) lines.push(`Hints: ${JSON.stringify(e.hints)}`);
  for (const s of e.steps) {
    lines.push(`Thought: ${s.thought}`, `Action: ${s.action.name} ${JSON.stringify(s.action.args)}`);
    if (s.observation !== undefined) lines.push(`Observation: ${s.observation}`);
  }
  return lines.join('\n');
}
