import { useQuery } from '@tanstack/react-query';
import { services } from '../services';

export function useSchema(dbId: string) {
  return useQuery({ queryKey: ['schema', dbId], queryFn: () => services.engine.introspect(dbId) });
}

export function useColumnStats(dbId: string, table: string, column: string, enabled: boolean) {
  return useQuery({
    queryKey: ['stats', dbId, table, column],
    queryFn: () => services.engine.columnStats(dbId, table, column),
    enabled,
  });
}
