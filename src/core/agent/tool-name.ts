// Tool names as models write them: `SearchValue`, `search-value`, `functions.search_value`,
// `Search_Value`. A name that is one of the offered tools once case, separators and a namespace
// prefix are set aside is that tool; anything else stays as written (and is refused as unknown).

const canonical = (name: string) =>
  name
    .trim()
    .replace(/^.*[.:/]/, '') // functions.search_value, tools:search_value
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2') // SearchValue
    .replace(/[\s-]+/g, '_')
    .toLowerCase();

export function resolveToolName(name: string, offered: readonly string[]): string {
  if (offered.includes(name)) return name;
  const wanted = canonical(name);
  return offered.find((o) => canonical(o) === wanted) ?? name;
}
