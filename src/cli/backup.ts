// `npm run backup -- <file>`: a consistent copy of the embedded store that DATABASE_URL names (read as the
// service reads it), made while the service runs and writes (shared decisions §10, "Backup"). The copy is
// written beside the target under a temporary name and appears under <file> only once it is whole and
// checked; an existing file is never overwritten. Progress goes to stderr every few seconds, the result to
// stdout. Exit codes: 0 copied, 1 the copy failed, 2 refused (nothing was written), 130/143 interrupted.
// Restoring is docs/deploy.md's "Backups and restores"; how the copy is made, sqlite-backup.ts.
import { existsSync, fsyncSync, linkSync, closeSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.js';
import { copySqliteStore, removeCopy } from './sqlite-backup.js';

const USAGE = `Usage: npm run backup -- <file>
  Copies the embedded store (DATABASE_URL, file:PATH) into <file>, a new file, while the service runs.
  Restore: docs/deploy.md, "Backups and restores".`;

/** How often a progress line is printed; a copy that takes less prints none. */
const PROGRESS_EVERY_MS = 2000;

class Refusal extends Error {}

const say = (line: string) => process.stderr.write(`${line}\n`);

function size(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(2)} GB`;
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1e3))} kB`;
}

const seconds = (value: number) => (value < 10 ? value.toFixed(2) : value.toFixed(1));

/** The store's file and the copy's, or the reason there is nothing to do. */
function paths(args: string[]): { source: string; target: string } {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, strict: true, options: { help: { type: 'boolean', short: 'h' } } });
  } catch (error) {
    throw new Refusal(`${(error as Error).message}\n${USAGE}`);
  }
  if (parsed.values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  if (parsed.positionals.length !== 1) throw new Refusal(`Name one file to write the copy to.\n${USAGE}`);

  const config = loadConfig();
  if (!config.databaseUrl.startsWith('file:')) {
    throw new Refusal(
      'DATABASE_URL names a PostgreSQL database, which this command does not copy: back it up with PostgreSQL\'s own tools ' +
        '(pg_dump -Fc for a small database; base backups with WAL archiving for a large one). See docs/deploy.md, "Backups and restores".',
    );
  }
  const path = config.databaseUrl.slice('file:'.length);
  if (path === ':memory:') throw new Refusal('DATABASE_URL is file::memory:, an in-memory store that lives only inside its process: there is no file to back up.');
  const source = resolve(path);
  if (!existsSync(source)) throw new Refusal(`There is no store at ${source} (DATABASE_URL=${config.databaseUrl}): nothing to back up.`);

  // Run as `npm run backup`, npm starts the command in the project's directory; a relative <file> is meant
  // from where the operator typed it. (DATABASE_URL stays relative to the project, as for `npm start`.)
  const base = process.env.npm_lifecycle_event === 'backup' && process.env.INIT_CWD ? process.env.INIT_CWD : process.cwd();
  const target = resolve(base, parsed.positionals[0]!);
  if (existsSync(target)) throw new Refusal(`${target} exists: a backup never overwrites a file. Name a new file, or move that one away first.`);
  for (const suffix of ['-wal', '-shm', '-journal']) {
    // A service opening the copy would take such a file for the copy's own and apply it: a stale log would corrupt it.
    if (existsSync(target + suffix)) throw new Refusal(`${target + suffix} exists, and would be taken for the copy's own. Remove it, or name another file.`);
  }
  const directory = dirname(target);
  if (!existsSync(directory) || !statSync(directory).isDirectory()) throw new Refusal(`The directory ${directory} does not exist.`);
  return { source, target };
}

/** Gives the finished copy its name, unless something took that name meanwhile; then makes the name durable. */
function publish(temporary: string, target: string): void {
  const taken = new Refusal(`${target} appeared while the copy was made; the copy was not kept.`);
  let linked = false;
  try {
    // A link fails if the name is taken: never an overwrite, not even of a file that appeared meanwhile.
    linkSync(temporary, target);
    linked = true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw taken;
    // A file system without hard links.
    if (existsSync(target)) throw taken;
    renameSync(temporary, target);
  }
  if (linked) rmSync(temporary);
  const directory = openSync(dirname(target), 'r');
  try {
    fsyncSync(directory);
  } finally {
    closeSync(directory);
  }
}

async function main(): Promise<number> {
  let source: string;
  let target: string;
  try {
    ({ source, target } = paths(process.argv.slice(2)));
  } catch (error) {
    if (error instanceof Refusal || error instanceof ConfigError) {
      say(error.message);
      return 2;
    }
    throw error;
  }

  const temporary = `${target}.partial-${process.pid}`;
  const stop = new AbortController();
  let stoppedBy: NodeJS.Signals | null = null;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      stoppedBy = signal;
      stop.abort();
    });
  }
  const started = performance.now();
  let nextProgress = started + PROGRESS_EVERY_MS;
  try {
    const result = await copySqliteStore(source, temporary, {
      signal: stop.signal,
      onProgress: ({ copiedPages, totalPages, pageSize }) => {
        const now = performance.now();
        if (now < nextProgress) return;
        nextProgress = now + PROGRESS_EVERY_MS;
        const percent = totalPages > 0 ? Math.floor((100 * copiedPages) / totalPages) : 100;
        say(`Copied ${size(copiedPages * pageSize)} of ${size(totalPages * pageSize)} (${percent} %) in ${Math.round((now - started) / 1000)} s`);
      },
    });
    publish(temporary, target);
    const rate = result.bytes / 1e6 / Math.max(result.copySeconds, 0.001);
    process.stdout.write(
      `Backed up ${source} (${size(result.bytes)}) to ${target} in ${seconds(result.copySeconds)} s (${rate.toFixed(0)} MB/s), ` +
        `as it was at ${result.snapshotAt.toISOString()}; PRAGMA quick_check ok in ${seconds(result.checkSeconds)} s.\n`,
    );
    return 0;
  } catch (error) {
    removeCopy(temporary);
    if (stoppedBy) {
      say(`Stopped by ${stoppedBy}; nothing was written to ${target}.`);
      return stoppedBy === 'SIGINT' ? 130 : 143;
    }
    if (error instanceof Refusal) {
      say(error.message);
      return 2;
    }
    say(`The backup failed: ${error instanceof Error ? error.message : String(error)}. Nothing was written to ${target}.`);
    return 1;
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    say(`The backup failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
