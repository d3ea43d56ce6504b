// A tool as a person runs it by hand (the Tools panel, `dowser tools`): its fields' text made
// into the tool's arguments, which the tool's zod input then checks as it checks the model's.

import { APP_TOOLS, type ToolName, type ToolRegistry } from './registry';
import type { ToolFace } from './types';

export interface HandTool {
  name: ToolName;
  face: ToolFace<Record<string, unknown>>;
}

/** Every tool of the registry with its face, in the registry's order. */
export function handTools(registry: ToolRegistry = APP_TOOLS): HandTool[] {
  return Object.entries(registry).map(([name, tool]) => ({
    name: name as ToolName,
    face: tool.face as ToolFace<Record<string, unknown>>,
  }));
}

/**
 * The arguments from what was typed: empty optional fields left out, numbers as numbers (a
 * number field that is no number is passed on as typed, for the input check to name it).
 */
export function argsOfFields(
  face: ToolFace<Record<string, unknown>>,
  typed: Readonly<Record<string, string | undefined>>,
): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const f of face.fields) {
    const text = typed[f.name];
    if (text === undefined || (text.trim() === '' && !f.required)) continue;
    args[f.name] = f.kind === 'number' && text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text;
  }
  return args;
}
