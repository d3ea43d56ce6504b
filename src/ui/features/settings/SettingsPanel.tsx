import { DEFAULT_VALUE_CELL_BUDGET } from '../../../core/retrieval/distinct-values';
import type { IndexBudget } from '../../lib/app-settings';
import { READ_FROM_FILE_ABOVE_BYTES, type ReadChoice } from '../../../core/db/file-check';
import { rememberOpenFiles } from '../../actions/open-database';
import { useApp } from '../../store/app-store';
import { ModelSettingsForm } from './ModelSettingsForm';
import { PrivacySettings } from './PrivacySettings';
import { KeptIndexesSetting } from './KeptIndexesSetting';
import { ModelLimitsSetting } from './ModelLimitsSetting';
import { NumberSetting } from './NumberSetting';

export function SettingsPanel() {
  const settings = useApp((s) => s.settings);
  const update = useApp((s) => s.updateSettings);
  return (
    <form className="settings" onSubmit={(e) => e.preventDefault()}>
      <h2>Settings</h2>
      <ModelSettingsForm />
      <PrivacySettings />
      <NumberSetting
        label="Query time limit (seconds)"
        ariaLabel="Query time limit in seconds"
        min={1}
        max={600}
        scale={1000}
        value={settings.queryTimeoutMs}
        onChange={(queryTimeoutMs) => update({ queryTimeoutMs })}
      />
      <ModelLimitsSetting />
      <NumberSetting
        label="Rows shown per page"
        ariaLabel="Rows per page"
        min={10}
        max={100000}
        step={10}
        value={settings.pageSize}
        onChange={(pageSize) => update({ pageSize })}
      />
      <label>
        Opening a database
        <select
          value={settings.readDatabases}
          onChange={(e) => update({ readDatabases: e.target.value as ReadChoice })}
        >
          <option value="auto">
            Read files over {READ_FROM_FILE_ABOVE_BYTES / 1024 ** 2} MB from the file as needed
          </option>
          <option value="file">Always read from the file as needed (least memory)</option>
          <option value="memory">Always copy into memory (fastest for small files; at most 2 GB)</option>
        </select>
      </label>
      <label>
        Value index (what SearchValue searches)
        <select value={settings.indexBudget} onChange={(e) => update({ indexBudget: e.target.value as IndexBudget })}>
          <option value="default">
            Up to {(DEFAULT_VALUE_CELL_BUDGET / 1e6).toFixed(0)} million text cells (about 0.7 GB); larger tables from
            their first rows
          </option>
          <option value="large">
            Up to {((4 * DEFAULT_VALUE_CELL_BUDGET) / 1e6).toFixed(0)} million text cells (about 3 GB)
          </option>
          <option value="none">Every value, however much memory it takes</option>
        </select>
      </label>
      <KeptIndexesSetting />
      <label>
        Embedding model (semantic column search; empty = off)
        <input
          type="text"
          value={settings.embeddingModel}
          aria-label="Embedding model"
          placeholder="Xenova/all-MiniLM-L6-v2"
          onChange={(e) => update({ embeddingModel: e.target.value.trim() })}
        />
      </label>
      <label className="check">
        <input
          type="checkbox"
          checked={settings.embeddingDownload}
          onChange={(e) => update({ embeddingDownload: e.target.checked })}
        />
        Download the model from the Hugging Face hub when it is not self-hosted under /models/ (once, then cached by the
        browser). Off by default: the page then never contacts the hub.
      </label>

      <label className="check">
        <input
          type="checkbox"
          checked={settings.pauseAfterPlan}
          onChange={(e) => update({ pauseAfterPlan: e.target.checked })}
        />
        Pause after the plan: the agent waits for Continue before it looks anything up
      </label>
      <label className="check">
        <input
          type="checkbox"
          checked={settings.rememberFiles}
          onChange={(e) => {
            update({ rememberFiles: e.target.checked });
            // The files open now are kept too, not only those opened from here on.
            if (e.target.checked) void rememberOpenFiles();
          }}
        />
        Remember opened files on this device (stored in this browser's IndexedDB, never uploaded)
      </label>
    </form>
  );
}
