import { describe, expect, it } from 'vitest';
import { BASE_POLICY, BASE_POLICY_HEADER, connectAllowed, connectPolicy, MODEL_HUB_ORIGINS } from './csp';

describe('Content-Security-Policy', () => {
  it('allows scripts and workers only from the app, no inline script, no eval', () => {
    expect(BASE_POLICY).toContain("script-src 'self' 'wasm-unsafe-eval' blob:");
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
});
