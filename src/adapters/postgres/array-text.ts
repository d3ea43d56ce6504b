// A one-dimensional PostgreSQL array in its text form (`{a,"b c",NULL,"q\"d"}`), as pg_stats gives
// most_common_vals and histogram_bounds: the elements as text, NULL as null.

export function parseArrayText(text: string): Array<string | null> {
  if (!text.startsWith('{') || !text.endsWith('}')) return [];
  const out: Array<string | null> = [];
  const body = text.slice(1, -1);
  let i = 0;
  while (i < body.length) {
    if (body[i] === '"') {
      let value = '';
      i++;
      while (i < body.length && body[i] !== '"') {
        if (body[i] === '\\') i++;
        value += body[i++] ?? '';
      }
      i++; // closing quote
      out.push(value);
    } else {
      let end = body.indexOf(',', i);
      if (end === -1) end = body.length;
      const raw = body.slice(i, end);
      out.push(raw === 'NULL' ? null : raw);
      i = end;
    }
    if (body[i] === ',') i++;
  }
  return out;
}
