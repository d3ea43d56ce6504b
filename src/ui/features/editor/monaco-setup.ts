// Monaco, feature by feature and bundled locally (no CDN). Loaded lazily: this module and
// everything it imports form the editor chunk.

import * as monaco from 'monaco-editor/editor/editor.api';
import 'monaco-editor/features/suggest/register';
// The suggest widget itself (the 'suggest' feature above registers only inline completions).
import 'monaco-editor/editor/contrib/suggest/browser/suggestController';
import 'monaco-editor/editor/contrib/snippet/browser/snippetController2';
import 'monaco-editor/features/find/register';
import 'monaco-editor/features/comment/register';
import 'monaco-editor/features/bracketMatching/register';
import 'monaco-editor/features/wordHighlighter/register';
import 'monaco-editor/features/clipboard/register';
import 'monaco-editor/features/contextmenu/register';
import 'monaco-editor/features/multicursor/register';
import 'monaco-editor/features/hover/register';
import 'monaco-editor/languages/definitions/sql/register';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import { followColourScheme } from './themes';

self.MonacoEnvironment = { getWorker: () => new EditorWorker() };
followColourScheme(monaco);

export { monaco };
