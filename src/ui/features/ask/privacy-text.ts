import type { PrivacyLevel } from '../../../core/privacy/disclose';

/** How each privacy level reads to a person (core/privacy/disclose.ts does what it says). */
export const PRIVACY_CHOICES: Record<PrivacyLevel, { title: string; text: string }> = {
  full: { title: 'Full', text: 'values, row previews and statistics are sent as the tools find them.' },
  matches: {
    title: 'Matches only',
    text: 'a cell value is sent only when it is made of words of your question (or of your earlier questions in the conversation); row previews are sent as counts and column names.',
  },
  schema: {
    title: 'Schema only',
    text: 'no cell value is sent (rows, statistics, error messages and examples included); counts are, and a query that counts rows can still tell the model whether a value is there.',
  },
};
