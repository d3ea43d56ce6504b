import { useMemo, useState } from 'react';
import type { Plan } from '../../../core/agent/plan';
import type { Schema } from '../../../core/types';

type SubQuestion = Plan['sub_questions'][number];

/**
 * The plan as editable cards: each sub-question's text and its table/column chips (added from
 * the schema, unknown names refused), added, deleted and moved by mouse or keyboard.
 */
export function PlanEditor({
  plan,
  schema,
  onChange,
}: {
  plan: Plan;
  schema: Schema | undefined;
  onChange(plan: Plan): void;
}) {
  const qs = plan.sub_questions;
  const set = (next: SubQuestion[]) => onChange({ sub_questions: next });
  const update = (i: number, q: SubQuestion) => set(qs.map((x, j) => (j === i ? q : x)));
  const move = (i: number, d: -1 | 1) => {
    const j = i + d;
    if (j < 0 || j >= qs.length) return;
    const next = [...qs];
    [next[i], next[j]] = [next[j], next[i]];
    set(next);
  };
  return (
    <ol className="plan-editor">
      {qs.map((q, i) => (
        <li key={i} className="plan-item" data-testid="plan-item">
          <input
            className="plan-text"
            aria-label={`Sub-question ${i + 1}`}
            value={q.text}
            onChange={(e) => update(i, { ...q, text: e.target.value })}
          />
          <span className="row gap">
            <button
              type="button"
              className="link small"
              aria-label={`Move sub-question ${i + 1} up`}
              disabled={i === 0}
              onClick={() => move(i, -1)}
            >
              ↑
            </button>
            <button
              type="button"
              className="link small"
              aria-label={`Move sub-question ${i + 1} down`}
              disabled={i === qs.length - 1}
              onClick={() => move(i, 1)}
            >
              ↓
            </button>
            <button
              type="button"
              className="link small"
              aria-label={`Delete sub-question ${i + 1}`}
              onClick={() => set(qs.filter((_, j) => j !== i))}
            >
              delete
            </button>
          </span>
          <Chips q={q} schema={schema} onChange={(nq) => update(i, nq)} index={i} />
        </li>
      ))}
      <li>
        <button type="button" className="link small" onClick={() => set([...qs, { text: '', tables: [] }])}>
          + add a sub-question
        </button>
      </li>
    </ol>
  );
}

function Chips({
  q,
  schema,
  onChange,
  index,
}: {
  q: SubQuestion;
  schema: Schema | undefined;
  onChange(q: SubQuestion): void;
  index: number;
}) {
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const names = useMemo(
    () => (schema?.tables ?? []).flatMap((t) => [t.name, ...t.columns.map((c) => `${t.name}.${c.name}`)]),
    [schema],
  );
  const listId = `chips-${index}`;

  const add = () => {
    const text = draft.trim();
    if (!text) return;
    const [tableName, ...rest] = text.split('.');
    const table = schema?.tables.find((t) => t.name.toLowerCase() === tableName.toLowerCase());
    const column = rest.length
      ? table?.columns.find((c) => c.name.toLowerCase() === rest.join('.').toLowerCase())
      : undefined;
    if (!table || (rest.length && !column)) {
      setProblem(`"${text}" is not a table or table.column of this database.`);
      return;
    }
    const existing = q.tables.find((t) => t.table === table.name);
    const tables = existing
      ? q.tables.map((t) =>
          t.table === table.name && column && !t.columns.includes(column.name)
            ? { ...t, columns: [...t.columns, column.name] }
            : t,
        )
      : [...q.tables, { table: table.name, columns: column ? [column.name] : [] }];
    onChange({ ...q, tables });
    setDraft('');
    setProblem(null);
  };
  const remove = (table: string, column?: string) =>
    onChange({
      ...q,
      tables: column
        ? q.tables.map((t) => (t.table === table ? { ...t, columns: t.columns.filter((c) => c !== column) } : t))
        : q.tables.filter((t) => t.table !== table),
    });

  return (
    <div className="chips-edit">
      {q.tables
        .flatMap(
          (t): Array<[string, string | undefined]> =>
            t.columns.length ? t.columns.map((c) => [t.table, c]) : [[t.table, undefined]],
        )
        .map(([t, c]) => (
          <span key={`${t}.${c ?? ''}`} className="chip">
            {c ? `${t}.${c}` : t}
            <button
              type="button"
              className="link"
              aria-label={`Remove ${c ? `${t}.${c}` : t}`}
              onClick={() => remove(t, c)}
            >
              ×
            </button>
          </span>
        ))}
      <input
        className="chip-input"
        list={listId}
        aria-label={`Add a table or column to sub-question ${index + 1}`}
        placeholder="+ table.column"
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            add();
          }
        }}
      />
      <datalist id={listId}>
        {names.map((n) => (
          <option key={n} value={n} />
        ))}
      </datalist>
      {problem && (
        <span className="error small" role="alert">
          {problem}
        </span>
      )}
    </div>
  );
}
