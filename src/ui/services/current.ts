// The services the page runs with, for actions (plain functions called from event handlers and
// effects). ServicesProvider binds them; nothing else sets them.

import type { Services } from './types';

let current: Services | null = null;

export function bindServices(services: Services): void {
  current = services;
}

export function getServices(): Services {
  if (!current) throw new Error('The page services are not set up yet (ServicesProvider missing).');
  return current;
}
