// A throw-away PostgreSQL cluster for tests and CI: its own folder, a free loopback port, a random
// password, and removal on stop (or at process exit). Plain Node so CI scripts can use it without tsx.
//   node scripts/pg-cluster.mjs start [--dir D]   prints {url, superUser, password, dir, port, socketDir}
//   node scripts/pg-cluster.mjs stop --dir D
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const SUPER_USER = 'dowser_admin';
const MISSING = 'PostgreSQL not found: run scripts/ensure-postgres.sh';

/** The newest Debian install's bin folder, else the one on PATH holding initdb (Debian keeps it off PATH). */
export function findPgBin() {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length) return join(root, versions[0], 'bin');
  return (process.env.PATH ?? '').split(delimiter).find((d) => d && existsSync(join(d, 'initdb'))) ?? null;
}

// PostgreSQL refuses to run as root, so as root every server-side command runs as an unprivileged user.
function serverUser() {
  if (process.getuid?.() !== 0) return null;
  for (const name of ['postgres', 'nobody']) {
    try {
      const id = (flag) => Number(execFileSync('id', [flag, name], { encoding: 'utf8', stdio: 'pipe' }).trim());
      return { name, uid: id('-u'), gid: id('-g') };
    } catch {
      // no such user: try the next
    }
  }
  throw new Error('running as root but neither the postgres nor the nobody user exists');
}

// cwd is the cluster folder: the unprivileged user may not be able to enter the caller's folder.
function command(user, bin, tool, args, dir) {
  const file = join(bin, tool);
  return user ? ['runuser', ['-u', user.name, '--', file, ...args], { cwd: dir }] : [file, args, { cwd: dir }];
}

function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

const stderrOf = (e) => `${e.stderr ?? ''}${e.stdout ?? ''}` || e.message;

async function initdb(user, bin, dir, password) {
  const pwfile = join(dir, 'pwfile');
  writeFileSync(pwfile, password, { mode: 0o600 });
  if (user) chownSync(pwfile, user.uid, user.gid);
  const base = ['-D', join(dir, 'data'), '-U', SUPER_USER, '--auth-local=trust', '--auth-host=scram-sha-256'];
  base.push(`--pwfile=${pwfile}`, '-E', 'UTF8', '--no-sync');
  try {
    for (const locale of [['--locale=C.UTF-8'], ['--no-locale']]) {
      try {
        await run(...command(user, bin, 'initdb', [...base, ...locale], dir));
        return;
      } catch (e) {
        // A machine without the C.UTF-8 locale gets the plain C one; any other failure is real.
        if (locale[0] === '--no-locale' || !/locale/i.test(stderrOf(e)))
          throw new Error(`initdb failed: ${stderrOf(e)}`, { cause: e });
        rmSync(join(dir, 'data'), { recursive: true, force: true });
      }
    }
  } finally {
    rmSync(pwfile, { force: true });
  }
}

// The port was free a moment ago but another process may take it first: then try a fresh one.
async function startServer(user, bin, dir, socketDir) {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    rmSync(join(dir, 'log'), { force: true }); // so a clash is read from this attempt's log only
    // pg_ctl hands -o to a shell: quote the folder.
    const settings = `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories='${socketDir}'`;
    const opts = `${settings} -c fsync=off -c shared_buffers=32MB -c max_connections=40`;
    const args = ['-D', join(dir, 'data'), '-l', join(dir, 'log'), '-w', '-o', opts, 'start'];
    try {
      await run(...command(user, bin, 'pg_ctl', args, dir));
      return port;
    } catch (e) {
      const log = existsSync(join(dir, 'log')) ? readFileSync(join(dir, 'log'), 'utf8') : '';
      if (attempt < 5 && /could not bind|address already in use/i.test(log)) continue;
      throw new Error(`pg_ctl start failed: ${stderrOf(e)}\n${log}`, { cause: e });
    }
  }
}

/** Stops the server in `dir` (if any) and removes the folder; synchronous so it also works in an 'exit' handler. */
export function stopClusterSync(dir, bin = findPgBin()) {
  if (bin && existsSync(join(dir, 'data', 'postmaster.pid'))) {
    const [file, args, opts] = command(
      serverUser(),
      bin,
      'pg_ctl',
      ['-D', join(dir, 'data'), '-m', 'immediate', 'stop'],
      dir,
    );
    try {
      execFileSync(file, args, { ...opts, stdio: 'ignore' });
    } catch {
      // already stopped: removing the folder is all that is left
    }
  }
  rmSync(dir, { recursive: true, force: true });
}

/**
 * Creates and starts a cluster. `dir` (default: a new temporary folder) must be empty or absent;
 * `stopOnExit: false` leaves the server running after this process ends (the CLI's `start`).
 */
export async function startCluster({ dir, stopOnExit = true } = {}) {
  const bin = findPgBin();
  if (!bin) throw new Error(MISSING);
  const user = serverUser();
  if (dir) mkdirSync(dir, { recursive: true });
  dir = dir ? resolve(dir) : mkdtempSync(join(tmpdir(), 'dowser-pg-'));
  const socketDir = join(dir, 'sock');
  mkdirSync(socketDir);
  if (user) for (const d of [dir, socketDir]) chownSync(d, user.uid, user.gid);
  const password = randomBytes(18).toString('base64url');
  const onExit = () => stopClusterSync(dir, bin);
  try {
    await initdb(user, bin, dir, password);
    if (stopOnExit) process.on('exit', onExit);
    const port = await startServer(user, bin, dir, socketDir);
    const url = `postgresql://${SUPER_USER}:${password}@127.0.0.1:${port}/postgres`;
    const cluster = { url, host: '127.0.0.1', port, user: SUPER_USER, password, dir, socketDir, bin };
    cluster.stop = async () => {
      process.off('exit', onExit);
      await run(...command(user, bin, 'pg_ctl', ['-D', join(dir, 'data'), '-m', 'immediate', 'stop'], dir)).catch(
        () => {},
      );
      rmSync(dir, { recursive: true, force: true });
    };
    return cluster;
  } catch (e) {
    process.off('exit', onExit);
    stopClusterSync(dir, bin);
    throw e;
  }
}

/** The superuser's URL of another database of the cluster. */
export function databaseUrl(cluster, database) {
  return cluster.url.replace(/\/postgres$/, `/${database}`);
}

/**
 * Runs `sql` with psql over the socket as the superuser, stopping at the first error; one statement
 * at a time (from stdin) so CREATE DATABASE works. Returns stdout, unaligned and without headers.
 */
export function runSql(cluster, sql, database = 'postgres') {
  const args = ['-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-h', cluster.socketDir, '-p', String(cluster.port)];
  args.push('-U', cluster.user, '-d', database, '-f', '-');
  return new Promise((resolveOut, reject) => {
    const child = execFile(join(cluster.bin, 'psql'), args, { encoding: 'utf8' }, (e, stdout, stderr) =>
      e ? reject(new Error(`psql failed: ${stderr || e.message}`)) : resolveOut(stdout),
    );
    child.stdin.end(sql);
  });
}

async function main([verb, ...rest]) {
  const at = rest.indexOf('--dir');
  const dir = at >= 0 ? rest[at + 1] : undefined;
  if (verb === 'start') {
    const c = await startCluster({ dir, stopOnExit: false });
    const info = { url: c.url, superUser: c.user, password: c.password, dir: c.dir, port: c.port };
    console.log(JSON.stringify({ ...info, socketDir: c.socketDir }));
  } else if (verb === 'stop' && dir) {
    stopClusterSync(resolve(dir));
  } else {
    console.error('usage: node scripts/pg-cluster.mjs start [--dir D] | stop --dir D');
    process.exitCode = 2;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((e) => {
    console.error(e.message);
    process.exitCode = 1;
  });
}
