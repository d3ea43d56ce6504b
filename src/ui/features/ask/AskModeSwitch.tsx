import { useMemo } from 'react';
import { DIRECT_MAX_SCHEMA_TOKENS, directSchemaTokens } from '../../../core/agent/direct-prompt';
import { useSchema } from '../../queries/hooks';
import { formatCount } from '../../lib/format';
import { useApp } from '../../store/app-store';
import { ANSWER_MODE_HELP, type AnswerMode } from '../../../core/agent/answer-mode';

/** The page's setting (kept with the other settings), one for every database. */
export function useAskMode(): AnswerMode {
  return useApp((s) => s.settings.answerMode);
}

/**
 * Auto / Agent / Direct by the question box (core/agent/answer-mode.ts). Direct sends the whole
 * schema in one prompt, so above Direct's budget (core/agent/direct-prompt.ts) the page says so
 * and offers Auto, which starts with the tools on such schemas. The scripted demo is an agent's
 * run: it offers the agent only.
 */
export function AskModeSwitch({ dbId, scripted }: { dbId: string; scripted: boolean }) {
  const chosen = useAskMode();
  const mode = scripted ? 'agent' : chosen;
  const updateSettings = useApp((s) => s.updateSettings);
  const setMode = (answerMode: AnswerMode) => updateSettings({ answerMode });
  const schema = useSchema(dbId).data;
  // Only while Direct is chosen: a schema of 10,000 tables arrives in slices, and measuring each
  // slice on the main thread would block it for nothing in Agent mode.
  const tokens = useMemo(() => (mode === 'direct' && schema ? directSchemaTokens(schema) : 0), [mode, schema]);
  const tooLarge = tokens > DIRECT_MAX_SCHEMA_TOKENS;
  const option = (value: AnswerMode, label: string, title: string, disabled = false) => (
    <label className="mode-option" title={title}>
      <input
        type="radio"
        name={`ask-mode-${dbId}`}
        value={value}
        checked={mode === value}
        disabled={disabled}
        onChange={() => setMode(value)}
      />
      {label}
    </label>
  );
  return (
    <>
      <span className="ask-mode" role="radiogroup" aria-label="Answer with">
        {option(
          'auto',
          'Auto',
          scripted ? 'Auto needs a model: choose one in Settings' : cap(ANSWER_MODE_HELP.auto),
          scripted,
        )}
        {option('agent', 'Agent', cap(ANSWER_MODE_HELP.agent))}
        {option(
          'direct',
          'Direct',
          scripted ? 'Direct needs a model: choose one in Settings' : cap(ANSWER_MODE_HELP.direct),
          scripted,
        )}
      </span>
      {mode === 'direct' && tooLarge && (
        <p className="warn small ask-mode-warning" role="status" data-testid="direct-too-large">
          This schema is about {formatCount(tokens)} tokens as Direct&apos;s prompt, above the{' '}
          {formatCount(DIRECT_MAX_SCHEMA_TOKENS)} Direct is made for: the model may miss columns or run out of context.
          Auto starts with the tools on a schema this large.{' '}
          <button type="button" className="link small" onClick={() => setMode('auto')}>
            Use Auto
          </button>
        </p>
      )}
    </>
  );
}

const cap = (text: string) => text[0].toUpperCase() + text.slice(1);
