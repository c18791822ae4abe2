// The ways of copying the embedded store that `npm run backup` did not take, for the backup benchmark to set
// beside it (docs/decisions.md, "Backups"), as a child process like the command:
//   node dist-bench/bench/backup/alternative.js vacuum-into|backup-api SOURCE TARGET GIVE_UP_SECONDS
// vacuum-into: `VACUUM INTO`, one statement in one read transaction. backup-api: better-sqlite3's
// db.backup() as its documentation shows it, 100 pages a step with a turn of the event loop between steps
// and no transaction held around them, so a commit of the service between two steps starts it over. Prints
// one JSON line: seconds, bytes, whether it finished, and for backup-api how often it started over and the
// most of the store it had copied (it gives up after GIVE_UP_SECONDS).
import { statSync } from 'node:fs';
import Database from 'better-sqlite3';

export interface AlternativeCopy {
  seconds: number;
  bytes: number;
  finished: boolean;
  restarts: number | null;
  /** The largest share of the store copied at any moment, 0–100. */
  furthestPercent: number | null;
}

const [method, source, target, giveUp] = process.argv.slice(2);
if (!method || !source || !target || !giveUp) {
  process.stderr.write('usage: alternative.js vacuum-into|backup-api SOURCE TARGET GIVE_UP_SECONDS\n');
  process.exit(2);
}

const db = new Database(source, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
const started = performance.now();
const seconds = () => (performance.now() - started) / 1000;
let result: AlternativeCopy;
if (method === 'vacuum-into') {
  db.prepare('VACUUM INTO ?').run(target);
  result = { seconds: seconds(), bytes: statSync(target).size, finished: true, restarts: null, furthestPercent: null };
} else if (method === 'backup-api') {
  const limit = Number(giveUp);
  let restarts = 0;
  let remaining = Number.POSITIVE_INFINITY;
  let furthest = 0;
  const gaveUp = new Error('gave up');
  let finished = true;
  await db
    .backup(target, {
      progress: ({ totalPages, remainingPages }) => {
        if (remainingPages >= remaining) restarts++;
        remaining = remainingPages;
        furthest = Math.max(furthest, totalPages > 0 ? (100 * (totalPages - remainingPages)) / totalPages : 100);
        if (seconds() > limit) throw gaveUp;
        return 100;
      },
    })
    .catch((error: unknown) => {
      if (error !== gaveUp) throw error;
      finished = false;
    });
  result = { seconds: seconds(), bytes: finished ? statSync(target).size : 0, finished, restarts, furthestPercent: finished ? 100 : furthest };
} else {
  process.stderr.write(`unknown method ${method}\n`);
  process.exit(2);
}
db.close();
process.stdout.write(`${JSON.stringify(result)}\n`);
