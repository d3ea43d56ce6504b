import '../core/security/zod-jitless';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { createServices } from './services';
import { ServicesProvider } from './services/context';
import { narrowConnections, originsFor } from './lib/connect-policy';
import { loadModelSettings } from './lib/model-settings';
import { servedOrigins, takeLinkFromAddress } from './lib/served-sessions';
import { registerOfflineWorker } from './lib/offline';
import { useUpdate } from './store/update-store';
import './styles.css';

// A dowser serve link's token leaves the address before anything else runs (lib/served-sessions.ts).
takeLinkFromAddress();

if (import.meta.env.PROD) {
  // Before anything connects: the app, the servers configured now (lib/connect-policy.ts) and dowser serve's.
  narrowConnections([...originsFor(loadModelSettings()), ...servedOrigins()]);
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
