import type { Glossary } from '../../../core/descriptions/glossary';
import { useApp } from '../../store/app-store';

/** The glossary of an open database (undefined until it was read from this device). */
export function useGlossary(dbId: string): Glossary | undefined {
  const name = useApp((s) => s.databases.find((d) => d.id === dbId)?.name);
  return useApp((s) => (name ? s.glossaries[name] : undefined));
}
