// Tiny static server. ?csp=1 on the page URL adds the strict CSP header.
import http from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
const ROOT = new URL('.', import.meta.url).pathname;
const CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'";
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8', '.json': 'application/json' };
export function startServer(port = 0) {
  const srv = http.createServer(async (req, res) => {
    const u = new URL(req.url, 'http://x');
    let p = u.pathname === '/' ? '/page.html' : u.pathname;
    const file = p.startsWith('/dist/') ? path.join(ROOT, p) : path.join(ROOT, 'web', p);
    if (!file.startsWith(ROOT)) { res.writeHead(403); return res.end(); }
    try {
      const body = await readFile(file);
      const h = { 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream', 'Cache-Control': 'no-store' };
      if (u.searchParams.get('csp') === '1') h['Content-Security-Policy'] = CSP;
      res.writeHead(200, h); res.end(body);
    } catch { res.writeHead(404); res.end('not found'); }
  });
  return new Promise((r) => srv.listen(port, '127.0.0.1', () => r(srv)));
}
if (import.meta.url === `file://${process.argv[1]}`) {
  const s = await startServer(+process.env.PORT || 8123);
  console.log('listening on http://127.0.0.1:' + s.address().port);
}
