// A real HAProxy in front of service processes (docs/deploy.md, "Behind a load balancer: HAProxy"). The
// frontend and backend are deploy/haproxy.cfg, the file that section shows and compose.yaml mounts, so the
// configuration the tests run is the documented one; only the addresses change (the listening port, and
// each `server` line's address in order). The `global` and `defaults` sections are deploy/haproxy-global.cfg,
// those of Debian's packaged haproxy.cfg, which the document keeps, plus a stats socket in a directory of
// the test's own.
import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { Parser } from 'commonmark';
import { projectRoot } from './build.js';
import { eventually } from './waiting.js';

/** The haproxy program on PATH (or in the sbin directories a non-root PATH lacks), or null. */
export const haproxyBinary: string | null = (() => {
  const directories = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin', '/sbin'];
  for (const directory of directories) {
    if (!directory) continue;
    const candidate = join(directory, 'haproxy');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
})();

export const DEPLOY_DOC = 'docs/deploy.md';
/** The documented frontend and backend: the file docs/deploy.md shows and compose.yaml mounts. */
export const HAPROXY_CONFIG = 'deploy/haproxy.cfg';
/** The `global` and `defaults` sections the documented configuration is appended to. */
export const HAPROXY_GLOBAL_CONFIG = 'deploy/haproxy-global.cfg';

/** The frontend and backend an operator appends (deploy/haproxy.cfg). */
export function documentedHaproxyConfig(): string {
  return readFileSync(join(projectRoot, HAPROXY_CONFIG), 'utf8');
}

/** The one ```haproxy block of docs/deploy.md, which must be deploy/haproxy.cfg as it is. */
export function haproxyBlockOfDeployDoc(): string {
  const document = new Parser().parse(readFileSync(join(projectRoot, DEPLOY_DOC), 'utf8'));
  const blocks: string[] = [];
  const walker = document.walker();
  for (let step = walker.next(); step; step = walker.next()) {
    const { node, entering } = step;
    if (entering && node.type === 'code_block' && (node.info ?? '').trim() === 'haproxy') blocks.push(node.literal ?? '');
  }
  if (blocks.length !== 1) throw new Error(`${DEPLOY_DOC} must hold exactly one \`\`\`haproxy block (${HAPROXY_CONFIG}); it holds ${blocks.length}`);
  return blocks[0]!;
}

/** Where the documented configuration's `type` links point: the PUBLIC_URL an operator replaces it with. */
export const DOCUMENTED_PUBLIC_URL = 'https://api.example.com';

/**
 * The documented configuration with loopback addresses: its one `bind` listens on `listenPort`, its
 * `server` lines, in order, point at `serverPorts`, and the links of its own answers at the balancer's
 * address (the processes' PUBLIC_URL). Fails when the document no longer has one bind line, as many
 * server lines as ports and its answers' links, so that the test and the document cannot drift apart
 * unnoticed.
 */
export function withLoopbackAddresses(documented: string, listenPort: number, serverPorts: number[]): string {
  const binds = documented.match(/^\s*bind\s+\S+/gm) ?? [];
  if (binds.length !== 1) throw new Error(`the documented HAProxy configuration must have one bind line; it has ${binds.length}`);
  const servers = documented.match(/^\s*server\s+\S+\s+\S+/gm) ?? [];
  if (servers.length !== serverPorts.length) {
    throw new Error(`the documented HAProxy configuration must have ${serverPorts.length} server lines; it has ${servers.length}`);
  }
  if (!documented.includes(DOCUMENTED_PUBLIC_URL)) throw new Error(`the documented HAProxy configuration's own answers must link to ${DOCUMENTED_PUBLIC_URL}/docs`);
  let next = 0;
  return documented
    .replace(/^(\s*bind\s+)\S+/m, `$1127.0.0.1:${listenPort}`)
    .replace(/^(\s*server\s+\S+\s+)\S+/gm, (_line, head: string) => `${head}127.0.0.1:${serverPorts[next++]}`)
    .replaceAll(DOCUMENTED_PUBLIC_URL, `http://127.0.0.1:${listenPort}`);
}

/** deploy/haproxy-global.cfg (Debian's packaged `global` and `defaults`) with a stats socket at `statsSocket`. */
function packagedSections(statsSocket: string): string {
  const sections = readFileSync(join(projectRoot, HAPROXY_GLOBAL_CONFIG), 'utf8');
  if (!/^global$/m.test(sections)) throw new Error(`${HAPROXY_GLOBAL_CONFIG} has no global section`);
  return sections.replace(/^global$/m, `global\n    stats socket ${statsSocket} mode 600 level admin\n    stats timeout 30s`);
}

export interface Haproxy {
  /** Where clients reach the balancer. */
  url: string;
  /** The configuration it runs. */
  config: string;
  /** Its log so far (one line per request, `option httplog`), and anything else it printed. */
  output(): string;
  /** The state of each server of `backend` as HAProxy sees it (UP, DOWN, "UP 1/2", MAINT…), by name. */
  serverStates(backend: string): Promise<Map<string, string>>;
  /** Stops it and removes its directory; answers its exit code. */
  stop(): Promise<number | null>;
}

/** Sends one command to the stats socket and answers what HAProxy wrote back. */
function statsCommand(socketPath: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(socketPath);
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    socket.on('connect', () => socket.write(`${command}\n`));
  });
}

/** Starts HAProxy in the foreground with `frontendAndBackend` after the packaged sections, and waits until it listens. */
export async function startHaproxy(frontendAndBackend: string, listenPort: number): Promise<Haproxy> {
  if (!haproxyBinary) throw new Error('haproxy is not installed (Debian: apt-get install haproxy)');
  const directory = mkdtempSync(join(tmpdir(), 'guide-service-haproxy-'));
  const statsSocket = join(directory, 'admin.sock');
  const config = `${packagedSections(statsSocket)}\n${frontendAndBackend}`;
  const configPath = join(directory, 'haproxy.cfg');
  writeFileSync(configPath, config);
  const child: ChildProcess = spawn(haproxyBinary, ['-db', '-f', configPath], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let gone = false;
  void exited.then(() => (gone = true));
  const haproxy: Haproxy = {
    url: `http://127.0.0.1:${listenPort}`,
    config,
    output: () => output,
    async serverStates(backend) {
      const [header, ...rows] = (await statsCommand(statsSocket, 'show stat')).trim().split('\n');
      const columns = header!.replace(/^# /, '').split(',');
      const at = (name: string) => columns.indexOf(name);
      const states = new Map<string, string>();
      for (const row of rows.map((line) => line.split(','))) {
        if (row[at('pxname')] === backend && !['FRONTEND', 'BACKEND'].includes(row[at('svname')]!)) states.set(row[at('svname')]!, row[at('status')]!);
      }
      return states;
    },
    async stop() {
      if (!gone) child.kill('SIGTERM');
      const code = await exited;
      rmSync(directory, { recursive: true, force: true });
      return code;
    },
  };
  await eventually(
    'HAProxy listening',
    async () => {
      if (gone) throw new Error(`haproxy exited at start:\n${output}\nconfiguration:\n${config}`);
      return statsCommand(statsSocket, 'show info').then(
        () => true,
        () => false,
      );
    },
    { timeoutMs: 20_000, intervalMs: 50 },
  );
  return haproxy;
}
