// How long the model may keep a question waiting (decision 068): the wait for a reply to begin or
// go on, and the time of a whole answer. Both finite: a stalled server ends with a message.

import { useApp } from '../../store/app-store';
import { NumberSetting } from './NumberSetting';

export function ModelLimitsSetting() {
  const settings = useApp((s) => s.settings);
  const update = useApp((s) => s.updateSettings);
  return (
    <>
      <NumberSetting
        label="Wait for the model (seconds)"
        ariaLabel="Wait for the model in seconds"
        min={1}
        max={3600}
        scale={1000}
        value={settings.modelWaitMs}
        onChange={(modelWaitMs) => update({ modelWaitMs })}
      />
      <NumberSetting
        label="Time limit of an answer (minutes)"
        ariaLabel="Time limit of an answer in minutes"
        min={1}
        max={1440}
        scale={60_000}
        value={settings.answerTimeMs}
        onChange={(answerTimeMs) => update({ answerTimeMs })}
      />
      <p className="muted small">
        A model server that sends nothing for that long, or an answer that takes that long (your own time answering its
        questions not counted), is stopped with a message; what was done is kept.
      </p>
    </>
  );
}
