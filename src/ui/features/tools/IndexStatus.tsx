import type { ToolsSummary } from '../../../core/engine';
import { ensureTools, forgetTools } from '../../actions/tools';
import { formatCount } from '../../lib/format';
import { useApp } from '../../store/app-store';

const STAGE_LABEL: Record<string, string> = {
  // Bytes of the file read for its checksum, before the indexes kept from the last opening are used (issue 35).
  checking: 'Checking the file is the one the kept indexes were made from',
  statistics: 'Computing column statistics',
  values: 'Reading distinct values',
  'value-index': 'Indexing values',
  keys: 'Checking possible join keys',
  embeddings: 'Embedding column descriptions',
};

/** Index building progress, then what the indexes hold and any columns handled by a special policy. */
export function IndexStatus({ dbId }: { dbId: string }) {
  const state = useApp((s) => s.tools[dbId]);
  if (!state || state.status === 'building') {
    const p = state?.progress;
    return (
      <div className="index-status" data-testid="index-status" data-status="building">
        <span>
          {p
            ? `${STAGE_LABEL[p.stage] ?? p.stage}… ${formatCount(p.done)} / ${formatCount(p.total)}`
            : 'Preparing the search indexes…'}
        </span>
        {p && p.total > 0 && <progress max={p.total} value={p.done} aria-label="Index building progress" />}
      </div>
    );
  }
  if (state.status === 'error') {
    return (
      <div className="index-status error" data-testid="index-status" data-status="error">
        The search indexes could not be built: {state.error}{' '}
        <button
          type="button"
          className="small"
          onClick={() => {
            forgetTools(dbId);
            void ensureTools(dbId);
          }}
        >
          Try again
        </button>
      </div>
    );
  }
  const s = state.summary!;
  const ms = Object.values(s.timings).reduce((a, b) => a + (b ?? 0), 0);
  return (
    <div className="index-status" data-testid="index-status" data-status="ready">
      <span>
        Indexes ready: {formatCount(s.columnsIndexed)} columns
        {s.columnsDescribed ? ` (${formatCount(s.columnsDescribed)} described)` : ''}, {formatCount(s.valuesIndexed)}{' '}
        distinct values, {s.inferredKeys} inferred join key{s.inferredKeys === 1 ? '' : 's'} ·{' '}
        {s.reused
          ? 'kept from the last opening of this file'
          : `built in ${formatCount(ms)} ms${TOKENIZED_IN[s.tokenizedIn]}`}{' '}
        · lexical search ready
      </span>
      <SemanticLine dbId={dbId} />
      {s.valuePolicies.length > 0 && (
        <details className="small">
          <summary>
            How the values of {formatCount(s.valuePolicies.length)} column{s.valuePolicies.length === 1 ? '' : 's'} are
            indexed
          </summary>
          <ul className="plain">
            {s.valuePolicies.map((p) => (
              <li key={`${p.table}.${p.column}`}>
                {p.table}.{p.column}: {p.policy}
                {p.note ? ` — ${p.note}` : ''}
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

/** How the values were tokenized, when it was not the database worker alone. */
const TOKENIZED_IN: Record<ToolsSummary['tokenizedIn'], string> = {
  engine: '',
  worker: ' (values tokenized in a second thread)',
  'engine-after-worker-failed': ' (the second thread failed; values tokenized in the database worker)',
};

/** The embedding model's state: loading, embedding the columns, ready, or why search stays lexical. */
function SemanticLine({ dbId }: { dbId: string }) {
  const semantic = useApp((s) => s.tools[dbId]?.semantic);
  if (!semantic) return null;
  const pct = semantic.progress != null ? ` ${Math.round(semantic.progress * 100)}%` : '';
  const text = {
    off: semantic.message,
    loading: `Loading the embedding model ${semantic.modelId}…${pct}`,
    indexing: `Embedding the column descriptions with ${semantic.modelId}…${pct}`,
    ready: `Semantic + lexical column search (model ${semantic.modelId}).`,
    unavailable: semantic.message,
  }[semantic.status];
  return (
    <div
      className={`small ${semantic.status === 'unavailable' ? 'warn' : 'muted'}`}
      data-testid="semantic-status"
      data-status={semantic.status}
    >
      {text}
    </div>
  );
}
