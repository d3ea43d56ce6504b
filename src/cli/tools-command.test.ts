// `dowser tools` is made from the tools' faces (core/tools/face.ts): every registered tool is a
// command, named in the help; arguments of another tool are refused (issue 27).
import { describe, expect, it } from 'vitest';
import { handTools } from '../core/tools/face';
import { runCli } from './test-support/run-cli';

describe('dowser tools', () => {
  it('names every tool of the registry as a command in its help', async () => {
    const tools = handTools();
    expect(tools.length).toBeGreaterThan(0);
    const help = await runCli(['tools', '--help']);
    for (const { face } of tools) expect(help.stdout).toContain(`  ${face.command} `);
    expect(help.stdout).toContain('  link "<question>"');
  });

  it('refuses an argument of another tool, and a wrong count of arguments', async () => {
    const stray = await runCli(['tools', 'path', '--db', 'x.sqlite', '--table', 't', 'a', 'b']);
    expect(stray.code).toBe(2);
    expect(stray.stderr).toContain('--table is not an argument of path');
    const count = await runCli(['tools', 'path', '--db', 'x.sqlite', 'a']);
    expect(count.stderr).toContain('path takes 2 arguments: <start> <end>');
  });
});
