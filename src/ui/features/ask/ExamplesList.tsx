import { useQuery } from '@tanstack/react-query';
import { useRef } from 'react';
import { examplesToJson } from '../../../core/examples/examples';
import { deleteExample, importExamples } from '../../actions/examples';
import { baseName, downloadText } from '../../lib/download';
import { examplesQuery } from '../../queries';
import { useServices } from '../../services/context';

/** The user's confirmed examples for this database: list, delete, export, import. */
export function ExamplesList({ dbName }: { dbName: string }) {
  const examples = useQuery(examplesQuery(useServices(), dbName));
  const input = useRef<HTMLInputElement>(null);
  const list = examples.data ?? [];
  return (
    <details className="history small" data-testid="examples">
      <summary>Confirmed examples ({list.length})</summary>
      <p className="muted">
        Runs you marked “Correct”. The most similar ones are shown to the model as your worked examples.
      </p>
      <ul className="plain">
        {list.map((e) => (
          <li key={e.id}>
            <span>{e.question}</span>{' '}
            <button
              type="button"
              className="link"
              aria-label={`Delete example ${e.question}`}
              onClick={() => void deleteExample(dbName, e.id)}
            >
              delete
            </button>
          </li>
        ))}
      </ul>
      <span className="row gap">
        <button
          type="button"
          className="small secondary"
          disabled={list.length === 0}
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
            if (f) void importExamples(dbName, f);
            ev.target.value = '';
          }}
        />
      </span>
    </details>
  );
}
