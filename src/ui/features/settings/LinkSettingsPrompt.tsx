import { reloadKeepingWork } from '../../actions/reload';
import { useAsk } from '../../store/ask-store';
import { needsReloadFor } from '../../lib/connect-policy';

const FIELD_LABEL = { provider: 'Provider', server: 'Server', model: 'Model' } as const;

/**
 * A link (`#provider=…&baseUrl=…&model=…`) asked for other model settings. Nothing changes
 * until the person accepts; a key entered for the current server is never sent to the link's.
 */
export function LinkSettingsPrompt() {
  const proposal = useAsk((s) => s.linkProposal);
  const answer = useAsk((s) => s.answerLink);
  if (!proposal) return null;
  const server = proposal.changes.find((c) => c.field === 'server');
  // A server the page was not loaded with is reachable after a reload (lib/connect-policy.ts).
  const reload = !!server?.to && !!needsReloadFor(server.to);
  const decide = (accept: boolean) => {
    answer(accept);
    // The question is answered: a reload must not ask again.
    history.replaceState(null, '', location.pathname + location.search);
    if (accept && reload) void reloadKeepingWork();
  };
  return (
    <section className="link-prompt" role="alertdialog" aria-label="Settings from a link" data-testid="link-prompt">
      <p>
        <b>This link wants to change which model answers your questions.</b> Your questions, the database's table names
        and looked-up values would go to the new settings:
      </p>
      <ul className="plain">
        {proposal.changes.map((c) => (
          <li key={c.field}>
            {FIELD_LABEL[c.field]}: <code>{c.from || '(none)'}</code> → <code>{c.to || '(none)'}</code>
          </li>
        ))}
      </ul>
      {server && (
        <p className="small">
          No saved API key goes to a new server: you would enter a key for it yourself, if it needs one.
        </p>
      )}
      <span className="row gap">
        <button type="button" onClick={() => decide(true)}>
          Use the link's settings{reload ? ' (reloads the page)' : ''}
        </button>
        <button type="button" className="secondary" onClick={() => decide(false)}>
          Keep my settings
        </button>
      </span>
    </section>
  );
}
