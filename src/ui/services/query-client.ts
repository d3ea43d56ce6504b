import { QueryClient } from '@tanstack/react-query';

/** Schema, statistics and lists change only when the page changes them: no refetching on focus or age. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: { queries: { staleTime: Infinity, retry: false, refetchOnWindowFocus: false } },
  });
}
