// How long the model may keep a question waiting (decision 068): the wait for a reply to begin or
// go on, and the time of a whole answer. Both finite: a stalled server ends with a message.

import { useApp } from '../../store/app-store';

export function ModelLimitsSetting() {
  const settings = useApp((s) => s.settings);
  const update = useApp((s) => s.updateSettings);
  return (
    <>
      <label>
        Wait for the model (seconds)
        <input
          type="number"
          min={1}
          max={3600}
          step={1}
          value={settings.modelWaitMs / 1000}
          aria-label="Wait for the model in seconds"
          onChange={(e) => {
            const v = Number(e.target.value);
            if (v >= 1 && v <= 3600) update({ modelWaitMs: Math.round(v * 1000) });
          }}
        />
      </label>
      <label>
        Time limit of an answer (minutes)
        <input
          type="number"
          min={1}
          max={1440}
          step={1}
          value={settings.answerTimeMs / 60_000}
          aria-label="Time limit of an answer in minutes"
          onChange={(e) => {
            const v = Number(e.target.value);
            if (v >= 1 && v <= 1440) update({ answerTimeMs: Math.round(v * 60_000) });
          }}
        />
      </label>
      <p className="muted small">
        A model server that sends nothing for that long, or an answer that takes that long (your own time answering its
        questions not counted), is stopped with a message; what was done is kept.
      </p>
    </>
  );
}
