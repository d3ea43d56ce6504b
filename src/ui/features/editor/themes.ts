// Editor colours that pass WCAG AA (4.5:1) on the editor's background, light and dark, and
// follow the system's colour scheme like the rest of the page (styles.css). Monaco's own 'vs'
// colours SQL strings #FF0000 (3.99:1 on white) and operators #778899 (3.6:1).

import type * as Monaco from 'monaco-editor/editor/editor.api';

const LIGHT: Monaco.editor.IStandaloneThemeData = {
  base: 'vs',
  inherit: true,
  rules: [
    { token: 'string.sql', foreground: 'B3261E' },
    { token: 'operator.sql', foreground: '55606E' },
    { token: 'predefined.sql', foreground: '9A1B9A' },
  ],
  colors: { 'editor.background': '#FFFFFF' },
};

const DARK: Monaco.editor.IStandaloneThemeData = {
  base: 'vs-dark',
  inherit: true,
  rules: [
    { token: 'string.sql', foreground: 'F4A196' },
    { token: 'operator.sql', foreground: 'A9B5C2' },
    { token: 'comment', foreground: '86B673' },
    { token: 'predefined.sql', foreground: 'F08CF0' },
  ],
  colors: {
    'editor.background': '#1F2220',
    'editorLineNumber.foreground': '#A0A09A',
    'editorGutter.background': '#1F2220',
  },
};

export function followColourScheme(monaco: typeof Monaco): void {
  monaco.editor.defineTheme('dowser-light', LIGHT);
  monaco.editor.defineTheme('dowser-dark', DARK);
  const dark = window.matchMedia?.('(prefers-color-scheme: dark)');
  const apply = () => monaco.editor.setTheme(dark?.matches ? 'dowser-dark' : 'dowser-light');
  apply();
  dark?.addEventListener?.('change', apply);
}
