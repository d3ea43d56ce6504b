import { useState } from 'react';
import { answerReview } from '../../actions/privacy';
import { shownLines } from '../../lib/format';
import { usePrivacy, type SentPrompt } from '../../store/privacy-store';

const size = (n: number) => (n < 1024 ? `${n} B` : `${(n / 1024).toFixed(1)} kB`);

/**
 * Every request the last run on this database sent to the model server, each with "Show prompt";
 * and the one waiting for Send. Another database's run shows none of them here.
 */
export function PromptLog({ dbId }: { dbId: string }) {
  const prompts = usePrivacy((s) => s.prompts);
  const reviewing = usePrivacy((s) => s.reviewing);
  const ours = usePrivacy((s) => s.promptsFor === dbId);
  const [open, setOpen] = useState<number | null>(null);
  const shown = prompts.find((p) => p.id === (reviewing?.id ?? open));
  if (prompts.length === 0 || !ours) return null;
  return (
    <>
      {/* Outside the list: a prompt waiting for Send shows even while the list is folded. */}
      {shown && <PromptDialog prompt={shown} waiting={!!reviewing} onClose={() => setOpen(null)} />}
      <PromptList prompts={prompts} waiting={!!reviewing} onShow={setOpen} />
    </>
  );
}

function PromptList(props: { prompts: SentPrompt[]; waiting: boolean; onShow(id: number): void }) {
  const { prompts, waiting } = props;
  return (
    <details className="prompt-log" data-testid="prompt-log">
      <summary>
        Prompts sent to the model ({prompts.filter((p) => p.status === 'sent').length})
        {waiting && ' — one is waiting for you'}
      </summary>
      <ol className="plain small">
        {prompts.map((p, i) => (
          <li key={p.id}>
            #{i + 1} {p.method} {new URL(p.url).pathname} · {size(new TextEncoder().encode(p.body).length)} · {p.status}{' '}
            <button type="button" className="link" onClick={() => props.onShow(p.id)}>
              Show prompt
            </button>
          </li>
        ))}
      </ol>
    </details>
  );
}

function PromptDialog({ prompt, waiting, onClose }: { prompt: SentPrompt; waiting: boolean; onClose(): void }) {
  return (
    <div className="value-dialog prompt-dialog" role="dialog" aria-modal="true" aria-label="Prompt">
      <h3>{waiting ? 'This prompt will be sent when you press Send' : 'The prompt as it was sent'}</h3>
      <p className="small">
        {prompt.method} {prompt.url}
        <br />
        {prompt.headers.map(([k, v]) => `${k}: ${v}`).join(' · ')}
      </p>
      <pre className="prompt-body" data-testid="prompt-body">
        {shownLines(prompt.body)}
      </pre>
      <span className="row gap">
        {waiting ? (
          <>
            <button type="button" onClick={() => answerReview(true)}>
              Send
            </button>
            <button type="button" className="secondary" onClick={() => answerReview(false)}>
              Don't send
            </button>
          </>
        ) : (
          <button type="button" className="secondary" onClick={onClose}>
            Close
          </button>
        )}
      </span>
    </div>
  );
}
