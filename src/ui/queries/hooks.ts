// The queries components read, with the services from context.

import { useQuery } from '@tanstack/react-query';
import { useServices } from '../services/context';
import { columnStatsQuery, schemaQuery } from './index';

export function useSchema(dbId: string) {
  return useQuery(schemaQuery(useServices(), dbId));
}

export function useColumnStats(dbId: string, table: string, column: string, enabled: boolean) {
  return useQuery({ ...columnStatsQuery(useServices(), dbId, table, column), enabled });
}
