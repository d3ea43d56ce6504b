import { useEffect, useState } from 'react';
import type { ToolCallOutcome } from '../../../core/tools/registry';
import { describeError } from '../../../core/errors';
import { ensureTools, runTool } from '../../actions/tools';
import { IndexStatus } from './IndexStatus';
import { LinkView } from './LinkView';
import { ToolOutput } from './ToolOutput';
import { argsOfFields, handTools } from '../../../core/tools/face';

/** The panel's tabs: each tool with a face in the registry (core/tools), then the question linker. */
const LINK = 'link';
type Choice = string;

const TOOL_CHOICES = handTools().filter((t) => t.face.label !== null);
const CHOICES: Array<{ id: Choice; label: string; hint: string }> = [
  ...TOOL_CHOICES.map((t) => ({ id: t.name, label: t.face.label!, hint: t.face.hint })),
  { id: LINK, label: 'Link a question', hint: 'Which words of a question name tables, columns or values?' },
];

/** Run any retrieval tool by hand and see the result as the agent will see it. */
export function ToolsPanel({ dbId }: { dbId: string }) {
  const [choice, setChoice] = useState<Choice>(CHOICES[0].id);
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
      const tool = TOOL_CHOICES.find((t) => t.name === choice);
      if (tool) setOutcome(await runTool(dbId, tool.name, argsOfFields(tool.face, fields)));
      else setLinkQuestion(field('question'));
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
        {TOOL_CHOICES.find((t) => t.name === choice)?.face.fields.map((f) => (
          <input
            key={f.name}
            aria-label={f.label}
            placeholder={f.placeholder}
            type={f.kind === 'number' ? 'number' : 'text'}
            min={f.min}
            max={f.max}
            value={field(f.name)}
            onChange={set(f.name)}
            required={f.required}
            className={f.narrow ? 'narrow' : undefined}
          />
        ))}
        {choice === LINK && (
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
