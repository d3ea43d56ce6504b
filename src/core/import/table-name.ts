// Names of imported tables and columns (issue 26; issue 35, item 10: SQLite refuses a table named
// sqlite_… — "object name reserved for internal use" — so sqlite_master.csv could not be imported).

/** Characters of a table name made from a file name; a longer one is cut, and said. */
export const TABLE_NAME_CHARS = 64;

export interface TableName {
  name: string;
  /** Why the name is not the file's own: said to the person. */
  note?: string;
}

/**
 * A name SQLite and people can use: the file's base name, letters, digits and _ only; one that
 * does not start with a letter or _, or that SQLite keeps for itself (sqlite_…), gets a t_ before.
 */
export function tableNameFor(fileName: string): TableName {
  const base = fileName.replace(/^.*[\\/]/, '').replace(/\.[^.]+$/, '');
  let clean = base.replace(/[^\p{L}\p{N}_]+/gu, '_').replace(/^_+|_+$/g, '');
  let note: string | undefined;
  const chars = [...clean];
  if (chars.length > TABLE_NAME_CHARS) {
    clean = chars.slice(0, TABLE_NAME_CHARS).join('').replace(/_+$/, '');
    note = `its file name cut to ${TABLE_NAME_CHARS} characters`;
  }
  if (/^sqlite_/i.test(clean))
    return { name: `t_${clean}`, note: 'SQLite keeps names starting with sqlite_ for itself' };
  return { name: /^\p{L}|^_/u.test(clean) ? clean : `t_${clean || 'table'}`, ...(note ? { note } : {}) };
}

export const tableNameOf = (fileName: string): string => tableNameFor(fileName).name;

/**
 * Column names as given, trimmed, control characters (a NUL would end the SQL that creates the
 * table) as spaces, empty ones named by position and repeats numbered.
 */
export function columnNamesOf(raw: readonly string[]): string[] {
  const used = new Set<string>();
  return raw.map((r, i) => {
    // eslint-disable-next-line no-control-regex
    const given = r.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim() || `column_${i + 1}`;
    let name = given;
    for (let n = 2; used.has(name.toLowerCase()); n++) name = `${given}_${n}`;
    used.add(name.toLowerCase());
    return name;
  });
}
