import { reloadKeepingWork } from '../../actions/reload';
import { useState } from 'react';
import { testConnection } from '../../actions/test-connection';
import { keyTarget, OPENAI_PRESETS, type ModelSettings, type ProviderKind } from '../../lib/model-settings';
import { providerById, providers } from '../../../core/llm/providers';
import { reloadNeededFor } from '../../lib/connect-policy';
import { WEBLLM_MODELS } from '../../../core/llm/webllm-models';
import { useAsk } from '../../store/ask-store';
import { KeyStorageChoice } from '../../components/KeyStorageChoice';

/** The page's choices from the registry, the demo first (what a first visit runs). */
const pageProviders = () => [...providers('page')].sort((a, b) => Number(b.scripted) - Number(a.scripted));

/** What a provider chosen after the page loaded needs is reachable after a reload (lib/connect-policy.ts). */
function ReloadNote({ settings }: { settings: ModelSettings }) {
  const blocked = reloadNeededFor(settings);
  if (!blocked) return null;
  return (
    <p className="warn small" data-testid="reload-note">
      Reload the page to connect to {blocked}: for safety this page only connects to the servers set when it loaded.
      Your settings, open files and key are kept.{' '}
      <button type="button" className="small" onClick={() => void reloadKeepingWork()}>
        Reload
      </button>
    </p>
  );
}

/** Keys are bound to the server they were entered for: say which, so a changed URL is visible. */
function KeyTargetNote({ target }: { target: ReturnType<typeof keyTarget> }) {
  if (!target) return null;
  return (
    <p className="muted small" data-testid="key-target">
      This key is sent only to {target.origin}. Another server gets only a key entered for it.
    </p>
  );
}

/** Which model answers. The key is kept in memory unless the person chooses to keep it longer. */
export function ModelSettingsForm() {
  const s = useAsk((st) => st.model);
  const set = useAsk((st) => st.setModel);
  const spec = providerById(s.provider);
  const [test, setTest] = useState<string | null>(null);

  const runTest = async () => {
    setTest('Testing…');
    setTest((await testConnection(s)).message);
  };

  return (
    <fieldset className="model-settings">
      <legend>Language model</legend>
      <label>
        Provider
        <select
          aria-label="Provider"
          value={s.provider}
          onChange={(e) => {
            const provider = e.target.value as ProviderKind;
            // In-browser models have their own names: start from a known one.
            set({
              provider,
              ...(provider === 'webllm' && !WEBLLM_MODELS.some((m) => m.id === s.model)
                ? { model: WEBLLM_MODELS[0].id }
                : {}),
            });
          }}
        >
          {pageProviders().map((p) => (
            <option key={p.id} value={p.id}>
              {p.label}
            </option>
          ))}
        </select>
      </label>
      {spec?.serverChosen && (
        <label>
          Preset
          <select
            aria-label="Preset"
            value={s.preset}
            onChange={(e) => {
              const p = OPENAI_PRESETS.find((x) => x.id === e.target.value)!;
              // Custom starts from an empty box: the previous preset's URL is not the person's server.
              set({ preset: p.id, baseUrl: p.baseUrl, ...(p.model ? { model: p.model } : {}) });
            }}
          >
            {OPENAI_PRESETS.map((p) => (
              <option key={p.id} value={p.id}>
                {p.label}
              </option>
            ))}
          </select>
        </label>
      )}
      {spec?.serverChosen && (
        <label>
          Base URL
          <input
            type="text"
            aria-label="Base URL"
            placeholder="https://your-server.example/v1"
            value={s.baseUrl}
            onChange={(e) => set({ baseUrl: e.target.value.trim(), preset: 'custom' })}
          />
        </label>
      )}
      <ReloadNote settings={s} />
      {!spec?.scripted && (
        <label>
          Model
          <input
            type="text"
            aria-label="Model name"
            value={s.model}
            list={s.provider === 'webllm' ? 'webllm-models' : undefined}
            onChange={(e) => set({ model: e.target.value.trim() })}
          />
        </label>
      )}
      {spec?.takesKey && (
        <>
          <label>
            API key
            <input
              type="password"
              aria-label="API key"
              autoComplete="off"
              value={s.apiKey}
              onChange={(e) => set({ apiKey: e.target.value })}
            />
          </label>
          <KeyTargetNote target={keyTarget(s)} />
          <KeyStorageChoice
            className="key-storage"
            name="key-storage"
            value={s.keyStorage}
            onChange={(keyStorage) => set({ keyStorage })}
          />
        </>
      )}
      {!spec?.scripted && (
        <label>
          Tool calling
          <select
            aria-label="Tool calling"
            value={s.toolMode}
            onChange={(e) => set({ toolMode: e.target.value as 'auto' | 'native' | 'text' })}
          >
            <option value="auto">automatic</option>
            <option value="native">native function calls</option>
            <option value="text">text protocol (models without tools)</option>
          </select>
        </label>
      )}
      {s.provider === 'webllm' && (
        <>
          <datalist id="webllm-models">
            {WEBLLM_MODELS.map((m) => (
              <option key={m.id} value={m.id}>
                {m.label}
              </option>
            ))}
          </datalist>
          <p className="muted small">
            Runs in this page with WebGPU; the model is downloaded once (hundreds of MB to a few GB) and cached by the
            browser.
          </p>
        </>
      )}
      {!spec?.scripted && (
        <button type="button" className="small" onClick={() => void runTest()}>
          Test connection
        </button>
      )}
      {test && (
        <p className="small" data-testid="connection-test">
          {test}
        </p>
      )}
    </fieldset>
  );
}
