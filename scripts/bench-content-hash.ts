/**
 * The checksum of a kept index's file (issue 35, decision 072): throughput of candidate hashes
 * over a 1 GiB buffer in memory and over a file read with readSync in 4 MiB chunks (as the CLI
 * reads a file in place), best of 3. hash-wasm is measured too when it is installed
 * (`npm install --no-save hash-wasm@4.13.0`); it is not a dependency.
 *
 *   npx tsx scripts/bench-content-hash.ts <large file>
 */
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import xxhash from 'xxhash-wasm';

interface Run {
  update(chunk: Uint8Array): void;
  digest(): unknown;
}

const file = process.argv[2];
if (!file) {
  console.error('Usage: npx tsx scripts/bench-content-hash.ts <large file>');
  process.exit(2);
}
const CHUNK = 4 << 20;
const xw = await xxhash();

/** Two 32-bit multiply-xor lanes over words: about the best a small hand-written JS hash does. */
function jsWordHash(): Run {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  return {
    update(u8) {
      const w = new Uint32Array(u8.buffer, u8.byteOffset, u8.byteLength >>> 2);
      for (let i = 0; i < w.length; i += 2) {
        a = Math.imul(a ^ w[i], 0x01000193);
        b = Math.imul(b ^ (w[i + 1] ?? 0), 0x01000193);
      }
    },
    digest: () => [a >>> 0, b >>> 0],
  };
}

const node = (name: string) => (): Run => {
  const h = createHash(name);
  return { update: (c) => h.update(c), digest: () => h.digest('hex') };
};

const hashes: Record<string, () => Run | Promise<Run>> = {
  'read only': () => ({ update() {}, digest: () => '' }),
  'xxhash-wasm h64': () => xw.create64(),
  'hand-written JS (two 32-bit lanes)': jsWordHash,
  'Node crypto md5': node('md5'),
  'Node crypto sha1': node('sha1'),
  'Node crypto sha256': node('sha256'),
  'Node crypto blake2b512': node('blake2b512'),
};
try {
  const hw = (await import('hash-wasm' as string)) as Record<string, () => Promise<Run & { init(): void }>>;
  for (const name of ['createXXHash64', 'createXXHash3', 'createXXHash128', 'createBLAKE3'])
    hashes[`hash-wasm ${name.slice(6).toLowerCase()}`] = async () => {
      const h = await hw[name]();
      h.init();
      return h;
    };
} catch {
  // Not installed: measured without it.
}

const memory = new Uint8Array(1024 << 20);
for (let i = 0; i < memory.length; i += 4096) memory[i] = i & 255;
const fd = openSync(file, 'r');
const size = fstatSync(fd).size;
const buffer = new Uint8Array(CHUNK);

async function timeMemory(make: () => Run | Promise<Run>): Promise<number> {
  const h = await make();
  const t = performance.now();
  for (let at = 0; at < memory.length; at += CHUNK) h.update(memory.subarray(at, at + CHUNK));
  h.digest();
  return (performance.now() - t) / 1000;
}

async function timeFile(make: () => Run | Promise<Run>): Promise<number> {
  const h = await make();
  const t = performance.now();
  for (let at = 0; at < size; ) {
    const n = readSync(fd, buffer, 0, CHUNK, at);
    if (n === 0) break;
    h.update(n === CHUNK ? buffer : buffer.subarray(0, n));
    at += n;
  }
  h.digest();
  return (performance.now() - t) / 1000;
}

console.log(`file ${(size / 2 ** 30).toFixed(2)} GiB; 1 GiB in memory; 4 MiB chunks; best of 3`);
console.log('| hash | memory GB/s | file s | file GB/s |\n|---|---|---|---|');
for (const [name, make] of Object.entries(hashes)) {
  const mem = Math.min(await timeMemory(make), await timeMemory(make), await timeMemory(make));
  const onFile = Math.min(await timeFile(make), await timeFile(make), await timeFile(make));
  const gbs = (bytes: number, s: number) => (bytes / s / 1e9).toFixed(2);
  console.log(
    `| ${name} | ${name === 'read only' ? '—' : gbs(memory.length, mem)} | ${onFile.toFixed(2)} | ${gbs(size, onFile)} |`,
  );
}
closeSync(fd);
