// Runs the mock LLM server by hand or as Playwright's webServer:
//   npx tsx e2e/mock-llm/main.ts --port 4391 --script e2e/mock-llm/some-script.json
// The script file is a JSON list of replies (see MockReply in server.ts), or { "replies": [...], "loop": true }
// to start again from the first reply when the list runs out.

import { readFileSync } from 'node:fs';
import { startMockLlm, type MockReply } from './server';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function loadScript(file: string | undefined): { replies: MockReply[]; loop: boolean } {
  if (!file) return { replies: [{ text: 'Hello from the mock model.' }], loop: true };
  const json = JSON.parse(readFileSync(file, 'utf8')) as MockReply[] | { replies: MockReply[]; loop?: boolean };
  return Array.isArray(json) ? { replies: json, loop: false } : { replies: json.replies, loop: !!json.loop };
}

const { replies, loop } = loadScript(arg('script'));
const server = await startMockLlm({
  port: Number(arg('port') ?? 4391),
  host: arg('host') ?? '127.0.0.1',
  script: (_req, index) =>
    replies[loop ? index % replies.length : index] ?? {
      error: {
        status: 500,
        body: { error: { message: `mock-llm: no scripted reply left for request #${index + 1}` } },
      },
    },
});
console.log(`mock-llm listening on ${server.url}`);

for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    void server.close().then(() => process.exit(0));
  });
}
