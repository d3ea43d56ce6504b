import { reloadKeepingWork } from '../../actions/reload';
import { useEffect, useState } from 'react';
import { testConnection, type ConnectionTest } from '../../actions/test-connection';
import { reloadNeededFor } from '../../lib/connect-policy';
import { applyModelPatch, keyTarget, OPENAI_PRESETS, type ModelSettings } from '../../lib/model-settings';
import { WEBLLM_MODELS } from '../../../core/llm/webllm-models';
import { useServices } from '../../services/context';
import { useApp } from '../../store/app-store';
import { useAsk } from '../../store/ask-store';
import { KeyStorageChoice } from '../../components/KeyStorageChoice';

type Way = 'local' | 'key' | 'browser';

const WAYS: Array<{ id: Way; label: string }> = [
  { id: 'local', label: 'A model server on this computer' },
  { id: 'key', label: 'An API key' },
  { id: 'browser', label: 'A model inside this page' },
];

const preset = (id: string) => OPENAI_PRESETS.find((p) => p.id === id)!;

/** The settings each way starts from (the person's own values where they already chose some). */
function startingDraft(way: Way, current: ModelSettings): ModelSettings {
  if (way === 'local') {
    const p = preset('ollama');
    return applyModelPatch(current, { provider: 'openai', preset: p.id, baseUrl: p.baseUrl, model: p.model });
  }
  if (way === 'key') {
    const p = preset('openai');
    return applyModelPatch(current, { provider: 'openai', preset: p.id, baseUrl: p.baseUrl, model: p.model });
  }
  return applyModelPatch(current, { provider: 'webllm', model: WEBLLM_MODELS[0].id });
}

/**
 * On the person's own file with no model chosen: the three ways in, where they are, each ending
 * in Test connection. Nothing is saved until a test connects (or the person saves to reload);
 * then the guide goes (the panel shows it only while no model is chosen) and a notice says so.
 */
export function NoModelGuide({ dbId }: { dbId: string }) {
  const current = useAsk((s) => s.model);
  const setModel = useAsk((s) => s.setModel);
  const [way, setWay] = useState<Way>('local');
  const [draft, setDraft] = useState<ModelSettings>(() => startingDraft('local', current));
  const [test, setTest] = useState<ConnectionTest | 'testing' | null>(null);
  const edit = (patch: Partial<ModelSettings>) => {
    setDraft((d) => applyModelPatch(d, patch));
    setTest(null);
  };
  const choose = (w: Way) => {
    setWay(w);
    setDraft(startingDraft(w, current));
    setTest(null);
  };
  const save = () => {
    const { provider, preset: p, baseUrl, model, apiKey, keyStorage, toolMode } = draft;
    setModel({ provider, preset: p, baseUrl, model, keyStorage, toolMode });
    // The key after the server: it is bound to where the settings point once saved.
    if (apiKey) setModel({ apiKey });
  };
  const run = async () => {
    setTest('testing');
    const outcome = await testConnection(draft);
    setTest(outcome);
    if (outcome.ok) {
      useApp.getState().notify('info', `${outcome.message} Saved: ask your question.`, dbId);
      save();
    }
  };
  const blocked = reloadNeededFor(draft);

  return (
    <section className="card no-model" data-testid="no-model-guide" aria-labelledby="no-model-title">
      <h3 id="no-model-title">Choose a model to ask questions about this file</h3>
      <p className="small">
        The scripted demo only answers on the demo database. Pick one of three ways; the model sees your question, table
        and column names and the values the agent looks up, never the file itself.
      </p>
      <div className="way-choice" role="group" aria-label="Ways to connect a model">
        {WAYS.map((w) => (
          <button
            key={w.id}
            type="button"
            className={way === w.id ? 'small' : 'small secondary'}
            aria-pressed={way === w.id}
            onClick={() => choose(w.id)}
          >
            {w.label}
          </button>
        ))}
      </div>
      <div className="way" data-testid={`way-${way}`}>
        {way === 'local' && <LocalServer draft={draft} edit={edit} />}
        {way === 'key' && <ApiKey draft={draft} edit={edit} />}
        {way === 'browser' && <InBrowser draft={draft} edit={edit} />}
        <div className="row gap">
          {/* A server this page did not load with cannot be reached before the reload: testing it would only fail. */}
          {blocked ? (
            <button
              type="button"
              className="small"
              onClick={() => {
                save();
                void reloadKeepingWork();
              }}
            >
              Save and reload
            </button>
          ) : (
            <button type="button" className="small" onClick={() => void run()} disabled={test === 'testing'}>
              Test connection
            </button>
          )}
        </div>
        {blocked && (
          <p className="muted small">
            For safety this page connects only to the servers set when it loaded: {blocked} needs a reload (your
            settings, open files and key are kept), then Settings → Test connection checks it.
          </p>
        )}
        {test && (
          <p
            className={`small ${test !== 'testing' && !test.ok ? 'error' : ''}`}
            role="status"
            data-testid="guide-test"
          >
            {test === 'testing' ? 'Testing…' : test.message}
          </p>
        )}
      </div>
    </section>
  );
}

interface WayProps {
  draft: ModelSettings;
  edit(patch: Partial<ModelSettings>): void;
}

function LocalServer({ draft, edit }: WayProps) {
  const origin = typeof location === 'undefined' ? '' : location.origin;
  const server = draft.preset === 'lmstudio' ? 'lmstudio' : draft.preset === 'ollama' ? 'ollama' : 'custom';
  return (
    <>
      <fieldset className="plain-fieldset">
        <legend className="small">Server</legend>
        {(['ollama', 'lmstudio', 'custom'] as const).map((id) => (
          <label className="check" key={id}>
            <input
              type="radio"
              name="local-server"
              checked={server === id}
              onChange={() => {
                const p = preset(id === 'custom' ? 'vllm' : id);
                edit({ preset: id === 'custom' ? 'custom' : p.id, baseUrl: p.baseUrl, model: p.model || draft.model });
              }}
            />
            {id === 'ollama' ? 'Ollama' : id === 'lmstudio' ? 'LM Studio' : 'Another OpenAI-compatible server'}
          </label>
        ))}
      </fieldset>
      {server === 'ollama' && (
        <p className="small">
          Start Ollama so that it accepts this page: <code>OLLAMA_ORIGINS={origin} ollama serve</code>, and fetch a
          model once: <code>ollama pull {draft.model || 'qwen2.5:7b'}</code>.
        </p>
      )}
      {server === 'lmstudio' && (
        <p className="small">
          In LM Studio, load a model, open the Developer tab, turn on <b>Enable CORS</b> and start the server.
        </p>
      )}
      <label className="field">
        Base URL
        <input
          type="text"
          value={draft.baseUrl}
          onChange={(e) => edit({ baseUrl: e.target.value.trim(), preset: 'custom' })}
        />
      </label>
      <label className="field">
        Model
        <input type="text" value={draft.model} onChange={(e) => edit({ model: e.target.value.trim() })} />
      </label>
    </>
  );
}

const KEY_SERVICES = [
  { id: 'openai', label: 'OpenAI' },
  { id: 'anthropic', label: 'Anthropic' },
  { id: 'openrouter', label: 'OpenRouter' },
] as const;

function ApiKey({ draft, edit }: WayProps) {
  const service = draft.provider === 'anthropic' ? 'anthropic' : draft.preset;
  const target = keyTarget(draft);
  return (
    <>
      <fieldset className="plain-fieldset">
        <legend className="small">Service</legend>
        {KEY_SERVICES.map((k) => (
          <label className="check" key={k.id}>
            <input
              type="radio"
              name="key-service"
              checked={service === k.id}
              onChange={() => {
                if (k.id === 'anthropic') edit({ provider: 'anthropic', model: 'claude-3-5-haiku-latest' });
                else {
                  const p = preset(k.id);
                  edit({ provider: 'openai', preset: p.id, baseUrl: p.baseUrl, model: p.model });
                }
              }}
            />
            {k.label}
          </label>
        ))}
      </fieldset>
      <label className="field">
        Model
        <input type="text" value={draft.model} onChange={(e) => edit({ model: e.target.value.trim() })} />
      </label>
      <label className="field">
        API key
        <input
          type="password"
          autoComplete="off"
          value={draft.apiKey}
          onChange={(e) => edit({ apiKey: e.target.value })}
        />
      </label>
      {target && (
        <p className="muted small">The key is sent only to {target.origin}; never put into links, exports or logs.</p>
      )}
      <KeyStorageChoice
        className="plain-fieldset"
        name="guide-key-storage"
        value={draft.keyStorage}
        onChange={(keyStorage) => edit({ keyStorage })}
      />
    </>
  );
}

function InBrowser({ draft, edit }: WayProps) {
  const services = useServices();
  const [gpu, setGpu] = useState<{ ok: true } | { ok: false; reason: string } | null>(null);
  useEffect(() => {
    let live = true;
    void services.checkWebGpu().then((r) => live && setGpu(r));
    return () => {
      live = false;
    };
  }, [services]);
  if (!gpu)
    return (
      <p className="small" role="status" data-testid="webgpu-check">
        Checking whether this browser can run a model…
      </p>
    );
  if (!gpu.ok)
    return (
      <p className="small warn" role="status" data-testid="webgpu-check" data-webgpu="no">
        Not in this browser: {gpu.reason}
      </p>
    );
  return (
    <>
      <p className="small" role="status" data-testid="webgpu-check" data-webgpu="yes">
        This browser has WebGPU. The model is downloaded once (hundreds of MB to a few GB, on Test connection) and
        cached.
      </p>
      <label className="field">
        Model
        <select value={draft.model} onChange={(e) => edit({ model: e.target.value })}>
          {WEBLLM_MODELS.map((m) => (
            <option key={m.id} value={m.id}>
              {m.label}
            </option>
          ))}
        </select>
      </label>
    </>
  );
}
