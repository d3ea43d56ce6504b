// How long an API key is kept (memory, this tab's session, this device), as the settings and the
// first-visit guide both ask it: one wording (ui/lib/model-settings.ts KEY_STORAGE_CHOICES).

import { KEY_STORAGE_CHOICES, type KeyStorage } from '../lib/model-settings';

export function KeyStorageChoice({
  name,
  value,
  className,
  onChange,
}: {
  /** The radio group's name: distinct where two forms show it. */
  name: string;
  value: KeyStorage;
  className: string;
  onChange: (storage: KeyStorage) => void;
}) {
  return (
    <fieldset className={className}>
      <legend className="small">Keep the key</legend>
      {KEY_STORAGE_CHOICES.map((k) => (
        <label className="check" key={k.id}>
          <input type="radio" name={name} checked={value === k.id} onChange={() => onChange(k.id)} />
          {k.label}
        </label>
      ))}
    </fieldset>
  );
}
