// A setting that is one number: its label, its range in the unit shown, and the factor to the
// unit stored (seconds shown, milliseconds kept). A value outside the range is not saved.

export interface NumberSettingProps {
  label: string;
  /** The accessible name, with the unit in words. */
  ariaLabel: string;
  min: number;
  max: number;
  step?: number;
  /** Stored value per shown unit (1000 for seconds kept as milliseconds). */
  scale?: number;
  value: number;
  onChange: (stored: number) => void;
}

export function NumberSetting({
  label,
  ariaLabel,
  min,
  max,
  step = 1,
  scale = 1,
  value,
  onChange,
}: NumberSettingProps) {
  return (
    <label>
      {label}
      <input
        type="number"
        min={min}
        max={max}
        step={step}
        value={value / scale}
        aria-label={ariaLabel}
        onChange={(e) => {
          const v = Number(e.target.value);
          if (v >= min && v <= max) onChange(Math.round(v * scale));
        }}
      />
    </label>
  );
}
