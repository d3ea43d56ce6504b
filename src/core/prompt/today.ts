// Today's date in a prompt whose database holds dates (issue 37): "the past 10 days" or "this
// year" are counted from the person's clock, not guessed from the data. Said as a line of the
// user message (the system prompt stays the same on every run, for providers' caches).

import type { Schema } from '../types';

/** The local calendar date of `d`, YYYY-MM-DD: what "today" means to the person at this clock. */
export function localDate(d: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
}

export const todayLine = (today: string) => `Today's date: ${today}.`;

/** A column typed as a date or time (the agent's prompt has no statistics to tell text dates by). */
export const hasDateTypes = (schema: Schema): boolean =>
  schema.tables.some((t) => t.columns.some((c) => c.typeClass === 'date' || /date|time/i.test(c.declaredType)));
