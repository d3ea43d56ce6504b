// Renders a component as the page would, with fake services (no workers, no IndexedDB): only the
// parts a test gives are real; anything else throws if the component reaches for it.

import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createQueryClient } from '../services/query-client';
import { ServicesProvider } from '../services/context';
import type { Services } from '../services/types';
import { AskControllers } from '../lib/ask-controller';

function unexpected(name: string): never {
  throw new Error(`The component used services.${name}, which this test did not provide.`);
}

export function fakeServices(parts: Partial<Services> = {}): Services {
  const base: Services = {
    get engine(): never {
      return unexpected('engine');
    },
    get embeddings(): never {
      return unexpected('embeddings');
    },
    queryClient: createQueryClient(),
    get recentFiles(): never {
      return unexpected('recentFiles');
    },
    get savedEvaluations(): never {
      return unexpected('savedEvaluations');
    },
    get reloadHandoff(): never {
      return unexpected('reloadHandoff');
    },
    get runHistory(): never {
      return unexpected('runHistory');
    },
    get examples(): never {
      return unexpected('examples');
    },
    get glossary(): never {
      return unexpected('glossary');
    },
    asks: new AskControllers(),
    createChatModel: () => unexpected('createChatModel'),
    setRestartListener: () => {},
    checkWebGpu: () => unexpected('checkWebGpu'),
    loadCharts: () => unexpected('loadCharts'),
    rankColumn: () => unexpected('rankColumn'),
    get parseFiles(): never {
      return unexpected('parseFiles');
    },
    forgetKeptIndexes: () => unexpected('forgetKeptIndexes'),
  };
  return Object.defineProperties(base, Object.getOwnPropertyDescriptors(parts)) as Services;
}

export function renderWithServices(ui: ReactElement, services: Services = fakeServices()) {
  return { services, ...render(<ServicesProvider services={services}>{ui}</ServicesProvider>) };
}
