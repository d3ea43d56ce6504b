import '../core/security/zod-jitless';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { createServices } from './services';
import { ServicesProvider } from './services/context';
import { narrowConnections, originsFor } from './lib/connect-policy';
import { loadModelSettings } from './lib/model-settings';
import { registerOfflineWorker } from './lib/offline';
import { useUpdate } from './store/update-store';
import './styles.css';

if (import.meta.env.PROD) {
  // Before anything connects: the app and the servers configured now (lib/connect-policy.ts).
  narrowConnections(originsFor(loadModelSettings()));
  registerOfflineWorker((version) => useUpdate.getState().found(version));
}

const services = createServices();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ServicesProvider services={services}>
      <App />
    </ServicesProvider>
  </StrictMode>,
);
