/**
 * The harness image's entrypoint: `docker run … wfcheck <command> [options]` runs `wfcheck <command>
 * [options]` in /work. Before that:
 *
 * - The reference target gets fresh keys. The image holds its seed without keys (no key is in any
 *   layer), and the installed package's fixtures/reference/seed.json is a link to a file that does not exist
 *   until this writes it, with a random key per tenant. A target booted inside the container (no
 *   BASE_URL) listens on the host's loopback with keys that only this run knows.
 * - The reports folder must be writable by the user the container runs as. A mounted folder that
 *   belongs to someone else would otherwise fail deep inside a run; here it is named with its fix.
 * - wfcheck runs in a process group of its own. As PID 1 this process is the one `docker stop`
 *   (SIGTERM) and, without a terminal, Ctrl-C (SIGINT) reach; each is passed to the whole group, as a
 *   terminal would, so that the run stops what it started (the target, the test runner, k6).
 *
 * Plain JavaScript: it runs before the harness's TypeScript loader is registered.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, constants, existsSync, readFileSync, readlinkSync, statSync, writeFileSync } from 'node:fs';
import { constants as os } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const PACKAGE = join(HERE, 'node_modules', 'wfcheck');
const SEED_WITHOUT_KEYS = join(HERE, 'target-seed-without-keys.json');
const SEED_LINK = join(PACKAGE, 'fixtures', 'reference', 'seed.json');

const args = process.argv.slice(2);
const onlyPrints = args.length === 0 || ['--help', '-h', 'help', '--version', '-V'].includes(args[0]);

/** The seed the link points at, with a key per tenant that exists only in this container. */
function writeSeedWithFreshKeys() {
  const seed = JSON.parse(readFileSync(SEED_WITHOUT_KEYS, 'utf8'));
  for (const tenant of seed.tenants) tenant.apiKey = `wfk_${tenant.name}_${randomBytes(16).toString('hex')}`;
  writeFileSync(readlinkSync(SEED_LINK), `${JSON.stringify(seed, null, 2)}\n`, { mode: 0o600 });
}

/** Where the run writes (./reports, else the work folder itself) must accept this user's files. */
function refuseUnwritableReports() {
  const dir = existsSync('reports') ? join(process.cwd(), 'reports') : process.cwd();
  try {
    accessSync(dir, constants.W_OK);
  } catch {
    const uid = process.getuid?.();
    const owner = statSync(dir).uid;
    console.error(
      [
        `wfcheck: ${dir} belongs to uid ${owner} and this container runs as uid ${uid}, which cannot write there.`,
        'Run the container as the owner of the mounted folder, and create the folder first, e.g.',
        '  mkdir -p reports && docker run --rm --network host --user "$(id -u):$(id -g)" -v "$PWD/reports:/work/reports" wfcheck conformance',
      ].join('\n'),
    );
    process.exit(2);
  }
}

if (!onlyPrints) {
  refuseUnwritableReports();
  writeSeedWithFreshKeys();
}

const child = spawn(process.execPath, [join(PACKAGE, 'bin', 'wfcheck.mjs'), ...args], {
  stdio: 'inherit',
  detached: true,
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    try {
      process.kill(-child.pid, signal);
    } catch {
      // The group is already gone: the close handler below ends this process.
    }
  });
}
child.on('error', (err) => {
  console.error(`wfcheck: could not start: ${err.message}`);
  process.exit(2);
});
// PID 1 cannot end itself by a signal it has no handler for, so a run ended by one exits 128 + its number, as a shell reports it.
child.on('close', (code, signal) => process.exit(signal ? 128 + (os.signals[signal] ?? 0) : (code ?? 2)));
