import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, migrateSettings, parseSettings } from './app-settings';

describe('page settings from localStorage (parsed, versioned)', () => {
  it('migrates the unversioned object; the hub download becomes opt-in again', () => {
    expect(migrateSettings({ queryTimeoutMs: 20_000, embeddingDownload: true, pauseAfterPlan: true })).toEqual({
      ...DEFAULT_SETTINGS,
      queryTimeoutMs: 20_000,
      pauseAfterPlan: true,
      embeddingDownload: false,
    });
    expect(migrateSettings({ version: 2, settings: { embeddingDownload: true } }).embeddingDownload).toBe(true);
    expect(migrateSettings(undefined)).toEqual(DEFAULT_SETTINGS);
    expect(migrateSettings({ version: 99, settings: {} })).toEqual(DEFAULT_SETTINGS);
  });

  it('keeps good fields and drops bad ones one by one; unknown keys are not spread in', () => {
    const s = parseSettings({
      queryTimeoutMs: -1,
      pageSize: 'many',
      rememberFiles: true,
      embeddingModel: '../../etc/passwd',
      __proto__: { polluted: true },
      extra: '<img onerror=alert(1)>',
    });
    expect(s).toEqual({ ...DEFAULT_SETTINGS, rememberFiles: true });
    expect(parseSettings({ embeddingModel: 'Xenova/all-MiniLM-L6-v2' }).embeddingModel).toBe('Xenova/all-MiniLM-L6-v2');
    expect(parseSettings({ embeddingModel: '' }).embeddingModel).toBe('');
    expect(parseSettings({ embeddingModel: 'https://evil.example/model' }).embeddingModel).toBe(
      DEFAULT_SETTINGS.embeddingModel,
    );
    expect(parseSettings('nonsense')).toEqual(DEFAULT_SETTINGS);
  });

  it('CSV formula protection is on and the hub is off by default', () => {
    expect(DEFAULT_SETTINGS).toMatchObject({ protectCsvFormulas: true, embeddingDownload: false });
  });
});

describe('the value index budget setting (issue 26)', () => {
  it('maps each choice to the engine budget and falls back to the default on a bad value', async () => {
    const { valueCellBudgetOf } = await import('./app-settings');
    expect(valueCellBudgetOf('default')).toBeUndefined();
    expect(valueCellBudgetOf('large')).toBe(64_000_000);
    expect(valueCellBudgetOf('none')).toBeNull();
    expect(parseSettings({ indexBudget: 'huge', readDatabases: 'disk' })).toMatchObject({
      indexBudget: 'default',
      readDatabases: 'auto',
    });
    expect(parseSettings({ indexBudget: 'none', readDatabases: 'file' })).toMatchObject({
      indexBudget: 'none',
      readDatabases: 'file',
    });
  });
});

describe('the model time limits (decision 068)', () => {
  it('are finite by default, kept when sensible, and fall back one by one', () => {
    expect(DEFAULT_SETTINGS).toMatchObject({ modelWaitMs: 180_000, answerTimeMs: 900_000 });
    expect(parseSettings({ modelWaitMs: 30_000, answerTimeMs: 3_600_000 })).toMatchObject({
      modelWaitMs: 30_000,
      answerTimeMs: 3_600_000,
    });
    // No limit is no choice here: zero, or longer than the form allows, takes the default.
    expect(parseSettings({ modelWaitMs: 0, answerTimeMs: 1e12 })).toMatchObject({
      modelWaitMs: 180_000,
      answerTimeMs: 900_000,
    });
  });
});
