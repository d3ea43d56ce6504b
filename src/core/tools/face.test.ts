// Each tool's face (how a person runs it by hand) agrees with its zod input, which the Tools panel
// and `dowser tools` are made from (issue 27): a tool added to the registry with a face appears
// in both without editing them (src/cli/tools-command.test.ts checks the command's help).
import { describe, expect, it } from 'vitest';
import { argsOfFields, handTools } from './face';
import { toolInputSchema } from './registry';

describe('tool faces', () => {
  const tools = handTools();

  it('name only inputs the tool has, require what its input requires, and give numbers where it wants them', () => {
    expect(tools.length).toBeGreaterThan(0);
    for (const { name, face } of tools) {
      const schema = toolInputSchema(name) as {
        properties: Record<string, { type?: string }>;
        required?: string[];
      };
      const required = new Set(schema.required ?? []);
      expect(face.fields.length, name).toBeGreaterThan(0);
      for (const f of face.fields) {
        expect(Object.keys(schema.properties), `${name}.${f.name}`).toContain(f.name);
        expect(f.required, `${name}.${f.name} required`).toBe(required.has(f.name));
        expect(f.kind === 'number', `${name}.${f.name} kind`).toBe(
          ['integer', 'number'].includes(schema.properties[f.name].type ?? ''),
        );
        if (f.positional) expect(f.required, `${name}.${f.name}: a positional argument is required`).toBe(true);
      }
      // Every required input can be given by hand.
      for (const r of required)
        expect(
          face.fields.map((f) => f.name),
          `${name} lacks ${r}`,
        ).toContain(r);
    }
    expect(new Set(tools.map((t) => t.face.command)).size).toBe(tools.length);
  });

  it('make arguments from typed text: empty optional fields left out, numbers as numbers', () => {
    const value = tools.find((t) => t.name === 'search_value')!.face;
    expect(argsOfFields(value, { query: 'Pairs', table: '', column: ' ', k: '3' })).toEqual({ query: 'Pairs', k: 3 });
    expect(argsOfFields(value, { query: 'x', k: 'many' })).toEqual({ query: 'x', k: 'many' });
  });
});
