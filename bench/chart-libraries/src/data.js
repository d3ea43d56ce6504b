// Deterministic test data shared by all libraries (bundled separately, not counted in library size).
function mulberry32(a) { return function () { a |= 0; a = (a + 0x6D2B79F5) | 0; let t = Math.imul(a ^ (a >>> 15), 1 | a); t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t; return ((t ^ (t >>> 14)) >>> 0) / 4294967296; }; }
export function makeData(seed = 42) {
  const r = mulberry32(seed);
  const bar = 'ABCDEFGH'.split('').map((c) => ({ category: 'Cat ' + c, value: Math.round(10 + r() * 90) }));
  const t0 = Date.UTC(2024, 0, 1);
  let v = 50;
  const line = Array.from({ length: 100 }, (_, i) => { v += (r() - 0.5) * 6; return { date: new Date(t0 + i * 864e5), value: +v.toFixed(2) }; });
  const scatter = Array.from({ length: 10000 }, () => { const x = r() * 100; return { x, y: x * 0.5 + (r() - 0.5) * 40 }; });
  return { bar, line, scatter };
}
