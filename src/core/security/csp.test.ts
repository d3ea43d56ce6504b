import { describe, expect, it } from 'vitest';
import {
  BASE_POLICY,
  BASE_POLICY_HEADER,
  connectAllowed,
  connectPolicy,
  MODEL_HUB_ORIGINS,
  policyHeaderFor,
  workerPolicy,
} from './csp';

describe('Content-Security-Policy', () => {
  it('allows scripts and workers only from the app, no inline script, no eval', () => {
    expect(BASE_POLICY).toContain("script-src 'self' 'wasm-unsafe-eval';");
    // No script from a blob: URL (transformers.js' wasm cache made one; it is off, decision 071).
    expect(BASE_POLICY_HEADER).not.toMatch(/script-src[^;]*blob:/);
    expect(BASE_POLICY).toContain("worker-src 'self'");
    expect(BASE_POLICY).not.toMatch(/'unsafe-inline'[^;]*;.*script|script-src[^;]*'unsafe-(inline|eval)'/);
    expect(BASE_POLICY).toContain("object-src 'none'");
    expect(BASE_POLICY).not.toContain('frame-ancestors'); // ignored in a meta tag
    expect(BASE_POLICY_HEADER).toContain("frame-ancestors 'none'");
  });

  it('narrows connections to the app and the configured origins', () => {
    expect(
      connectPolicy(['http://127.0.0.1:9/v1/chat', 'https://api.openai.com', 'javascript:alert(1)', 'nonsense']),
    ).toBe("connect-src 'self' http://127.0.0.1:9 https://api.openai.com");
    const self = 'http://127.0.0.1:4173/';
    const origins = ['https://api.openai.com', 'http://localhost:11434', ...MODEL_HUB_ORIGINS];
    expect(connectAllowed('https://api.openai.com/v1/chat/completions', origins, self)).toBe(true);
    expect(connectAllowed('/demo.sqlite', origins, self)).toBe(true);
    expect(connectAllowed('https://cdn-lfs.huggingface.co/x', origins, self)).toBe(true);
    expect(connectAllowed('https://api.openai.com.evil.example/v1', origins, self)).toBe(false);
    expect(connectAllowed('http://localhost:11435/v1', origins, self)).toBe(false);
    expect(connectAllowed('https://evilhuggingface.co/x', origins, self)).toBe(false);
  });

  it('gives each worker script its own policy: no model server, the hub for the embedding model only', () => {
    const db = policyHeaderFor('/assets/db.worker-Dtagc85O.js');
    expect(db).toBe(workerPolicy('db.worker'));
    expect(db).toContain("script-src 'self' 'wasm-unsafe-eval';");
    expect(db).toContain("worker-src 'self';");
    expect(db).toContain("connect-src 'self';");
    expect(db).not.toMatch(/https?:/);
    for (const path of ['/assets/tokenizer.worker-Cix1f0ec.js', '/assets/rows.worker-DZtJQp2o.js?v=2'])
      expect(policyHeaderFor(path)).toContain("connect-src 'self';");
    // Monaco's editor worker, named by Vite like ours.
    expect(policyHeaderFor('/app/assets/editor.worker-CX7Cj20z.js')).toBe(workerPolicy('editor.worker'));
    expect(policyHeaderFor('/assets/embed.worker-Cz4ycR5L.js')).toContain(
      `connect-src 'self' ${MODEL_HUB_ORIGINS.join(' ')};`,
    );
  });

  it('gives the page and its other files the page policy', () => {
    for (const path of ['/', '/index.html', '/assets/index-M2lyB88o.js', '/assets/webllm-B40FtEth.js'])
      expect(policyHeaderFor(path)).toBe(BASE_POLICY_HEADER);
  });
});
