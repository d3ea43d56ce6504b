import { useMemo } from 'react';
import { DIRECT_MAX_SCHEMA_TOKENS, directSchemaTokens } from '../../../core/agent/direct-prompt';
import { useSchema } from '../../queries/hooks';
import { formatCount } from '../../lib/format';
import { useTasks, type AskMode } from '../../store/task-store';

export function useAskMode(dbId: string): AskMode {
  return useTasks((s) => s.askMode[dbId] ?? 'agent');
}

/**
 * Agent / Direct by the question box. Direct sends the whole schema in one prompt, so above
 * Direct's budget (core/agent/direct-prompt.ts) the page says so and offers the agent.
 */
export function AskModeSwitch({ dbId, scripted }: { dbId: string; scripted: boolean }) {
  const mode = useAskMode(dbId);
  const setMode = useTasks((s) => s.setAskMode);
  const schema = useSchema(dbId).data;
  // Only while Direct is chosen: a schema of 10,000 tables arrives in slices, and measuring each
  // slice on the main thread would block it for nothing in Agent mode.
  const tokens = useMemo(() => (mode === 'direct' && schema ? directSchemaTokens(schema) : 0), [mode, schema]);
  const tooLarge = tokens > DIRECT_MAX_SCHEMA_TOKENS;
  const option = (value: AskMode, label: string, title: string, disabled = false) => (
    <label className="mode-option" title={title}>
      <input
        type="radio"
        name={`ask-mode-${dbId}`}
        value={value}
        checked={mode === value}
        disabled={disabled}
        onChange={() => setMode(dbId, value)}
      />
      {label}
    </label>
  );
  return (
    <>
      <span className="ask-mode" role="radiogroup" aria-label="Answer with">
        {option('agent', 'Agent', 'Plans, looks up columns and values with tools, runs SQL, explains')}
        {option(
          'direct',
          'Direct',
          scripted
            ? 'Direct needs a model: choose one in Settings'
            : 'One model call with the whole schema, no tools: fast, for small schemas; the SQL still runs, is explained and repaired once',
          scripted,
        )}
      </span>
      {mode === 'direct' && tooLarge && (
        <p className="warn small ask-mode-warning" role="status" data-testid="direct-too-large">
          This schema is about {formatCount(tokens)} tokens as Direct&apos;s prompt, above the{' '}
          {formatCount(DIRECT_MAX_SCHEMA_TOKENS)} Direct is made for: the model may miss columns or run out of context.
          The agent looks columns up with its tools instead.{' '}
          <button type="button" className="link small" onClick={() => setMode(dbId, 'agent')}>
            Use the agent
          </button>
        </p>
      )}
    </>
  );
}
