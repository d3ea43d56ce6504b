import { useEffect, useState } from 'react';
import type { ToolCallOutcome } from '../../../core/tools/registry';
import { describeError } from '../../../core/errors';
import { ensureTools, runTool } from '../../actions/tools';
import { IndexStatus } from './IndexStatus';
import { LinkView } from './LinkView';
import { ToolOutput } from './ToolOutput';

type Choice = 'search_column' | 'search_value' | 'find_shortest_path' | 'link';

const CHOICES: Array<{ id: Choice; label: string; hint: string }> = [
  { id: 'search_column', label: 'Search columns', hint: 'A phrase or a whole question: which columns hold it?' },
  { id: 'search_value', label: 'Search values', hint: 'A value as it might appear in the data (typos are fine).' },
  { id: 'find_shortest_path', label: 'Join path', hint: 'Two tables, or table.column: how do they join?' },
  { id: 'link', label: 'Link a question', hint: 'Which words of a question name tables, columns or values?' },
];

/** Run any retrieval tool by hand and see the result as the agent will see it. */
export function ToolsPanel({ dbId }: { dbId: string }) {
  const [choice, setChoice] = useState<Choice>('search_column');
  const [fields, setFields] = useState<Record<string, string>>({});
  const [outcome, setOutcome] = useState<ToolCallOutcome | null>(null);
  const [linkQuestion, setLinkQuestion] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    void ensureTools(dbId);
  }, [dbId]);

  const field = (name: string) => fields[name] ?? '';
  const set = (name: string) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setFields({ ...fields, [name]: e.target.value });

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setOutcome(null);
    setLinkQuestion(null);
    try {
      if (choice === 'link') {
        setLinkQuestion(field('question'));
      } else {
        const args = argsFor(choice, fields);
        setOutcome(await runTool(dbId, choice, args));
      }
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy(false);
    }
  };

  const current = CHOICES.find((c) => c.id === choice)!;
  return (
    <div className="tools-panel">
      <IndexStatus dbId={dbId} />
      <div className="tool-tabs" role="tablist" aria-label="Tool">
        {CHOICES.map((c) => (
          <button
            key={c.id}
            type="button"
            role="tab"
            aria-selected={c.id === choice}
            className={c.id === choice ? '' : 'secondary'}
            onClick={() => {
              setChoice(c.id);
              setOutcome(null);
              setLinkQuestion(null);
            }}
          >
            {c.label}
          </button>
        ))}
      </div>
      <form className="tool-form" onSubmit={(e) => void submit(e)}>
        <p className="muted small">{current.hint}</p>
        {choice === 'search_column' && (
          <>
            <input
              aria-label="Phrase"
              placeholder="e.g. customer birth date"
              value={field('query')}
              onChange={set('query')}
              required
            />
            <input
              aria-label="How many"
              type="number"
              min={1}
              max={20}
              placeholder="5"
              value={field('k')}
              onChange={set('k')}
              className="narrow"
            />
          </>
        )}
        {choice === 'search_value' && (
          <>
            <input
              aria-label="Value"
              placeholder="e.g. Pairs"
              value={field('query')}
              onChange={set('query')}
              required
            />
            <input
              aria-label="Table (optional)"
              placeholder="table"
              value={field('table')}
              onChange={set('table')}
              className="narrow"
            />
            <input
              aria-label="Column (optional)"
              placeholder="column"
              value={field('column')}
              onChange={set('column')}
              className="narrow"
            />
          </>
        )}
        {choice === 'find_shortest_path' && (
          <>
            <input
              aria-label="Start"
              placeholder="table or table.column"
              value={field('start')}
              onChange={set('start')}
              required
            />
            <input
              aria-label="End"
              placeholder="table or table.column"
              value={field('end')}
              onChange={set('end')}
              required
            />
          </>
        )}
        {choice === 'link' && (
          <input
            aria-label="Question"
            placeholder="e.g. Which customers in Oslo ordered tents?"
            value={field('question')}
            onChange={set('question')}
            required
          />
        )}
        <button type="submit" disabled={busy}>
          {busy ? 'Running…' : 'Run'}
        </button>
      </form>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {outcome && <ToolOutput outcome={outcome} />}
      {linkQuestion !== null && <LinkView dbId={dbId} question={linkQuestion} />}
    </div>
  );
}

function argsFor(choice: Exclude<Choice, 'link'>, f: Record<string, string>): Record<string, unknown> {
  const k = f.k ? Number(f.k) : undefined;
  if (choice === 'search_column') return { query: f.query ?? '', ...(k ? { k } : {}) };
  if (choice === 'search_value')
    return { query: f.query ?? '', ...(f.table ? { table: f.table } : {}), ...(f.column ? { column: f.column } : {}) };
  return { start: f.start ?? '', end: f.end ?? '' };
}
