import { useQuery } from '@tanstack/react-query';
import { useRef } from 'react';
import { examplesToJson, type ConfirmedExample } from '../../../core/examples/examples';
import { deleteExample, importExamples, reviewImported } from '../../actions/examples';
import { baseName, downloadText } from '../../lib/download';
import { shown, shownLines } from '../../lib/format';
import { examplesQuery } from '../../queries';
import { useServices } from '../../services/context';

const SHOWN = 100;

/** The user's confirmed examples for this database: list, delete, export, import (with review). */
export function ExamplesList({ dbId, dbName }: { dbId: string; dbName: string }) {
  const examples = useQuery(examplesQuery(useServices(), dbName));
  const input = useRef<HTMLInputElement>(null);
  const list = examples.data ?? [];
  const pending = list.filter((e) => e.source === 'imported' && !e.approved);
  const inUse = list.filter((e) => !(e.source === 'imported' && !e.approved));
  return (
    <details className="history small" data-testid="examples" open={pending.length > 0 || undefined}>
      <summary>
        Confirmed examples ({inUse.length}){pending.length > 0 && ` · ${pending.length} imported, waiting for review`}
      </summary>
      <p className="muted">
        Runs you marked “Correct”. The most similar ones are shown to the model as your worked examples.
      </p>
      {pending.length > 0 && (
        <section className="pending-examples" data-testid="pending-examples" aria-label="Imported examples to review">
          <p>
            <b>
              {pending.length} imported example{pending.length === 1 ? '' : 's'} from a file, not yet used.
            </b>{' '}
            Look at the questions and SQL: once you accept them the agent sees them as examples imported from a file,
            not as ones you confirmed.
          </p>
          <ExampleItems dbName={dbName} items={pending} showSql />
          <span className="row gap">
            <button type="button" className="small" onClick={() => void reviewImported(dbName, true)}>
              Use these examples
            </button>
            <button type="button" className="small secondary" onClick={() => void reviewImported(dbName, false)}>
              Discard them
            </button>
          </span>
        </section>
      )}
      <ExampleItems dbName={dbName} items={inUse} />
      <span className="row gap">
        <button
          type="button"
          className="small secondary"
          disabled={!inUse.some((e) => e.source !== 'imported')}
          onClick={() =>
            downloadText(`${baseName(dbName)}-examples.json`, examplesToJson(dbName, list), 'application/json')
          }
        >
          Export
        </button>
        <button type="button" className="small secondary" onClick={() => input.current?.click()}>
          Import…
        </button>
        <input
          ref={input}
          type="file"
          hidden
          accept=".json,application/json"
          data-testid="examples-import"
          onChange={(ev) => {
            const f = ev.target.files?.[0];
            if (f) void importExamples(dbId, dbName, f);
            ev.target.value = '';
          }}
        />
      </span>
    </details>
  );
}

function ExampleItems({ dbName, items, showSql }: { dbName: string; items: ConfirmedExample[]; showSql?: boolean }) {
  return (
    <ul className="plain">
      {items.slice(0, SHOWN).map((e) => (
        <li key={e.id} data-source={e.source ?? 'user'}>
          <span>{shown(e.question)}</span>
          {e.source === 'imported' && (
            <span className="badge" title={e.importedFrom ? shown(`Imported from ${e.importedFrom}`) : undefined}>
              imported
            </span>
          )}{' '}
          <button
            type="button"
            className="link"
            aria-label={`Delete example ${e.question}`}
            onClick={() => void deleteExample(dbName, e.id)}
          >
            delete
          </button>
          {showSql && <pre className="observation small">{shownLines(e.sql)}</pre>}
        </li>
      ))}
      {items.length > SHOWN && <li className="muted">… and {items.length - SHOWN} more</li>}
    </ul>
  );
}
