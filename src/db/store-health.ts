// Whether the store can take a write now, for /readyz (decisions §10). Three things say it cannot:
// - a request failed on the store (store-faults.ts) in the last FAULT_MEMORY_MS: the failure of a real
//   write is the surest sign, and the probe below can succeed where a larger write fails (the embedded
//   store reuses its write-ahead log's space, so a one-row write may fit on a full disk);
// - on the embedded store, the file system holding it has less than MIN_FREE_BYTES left;
// - a probe write (one row of store_probes) fails or does not finish within PROBE_TIMEOUT_MS.
// Once the store heals, the failures stop, their memory runs out and the next probe succeeds: readiness
// is back within FAULT_MEMORY_MS plus one probe.
import { statfs } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

export type Readiness = { ready: true } | { ready: false; reason: string; cause?: unknown };

/** How long a request's failure on the store keeps readiness down. */
export const FAULT_MEMORY_MS = 5000;
/** How long the probe write may take. */
export const PROBE_TIMEOUT_MS = 2000;
/** Free space below which the embedded store counts as full: a write may need new pages and log frames. */
export const MIN_FREE_BYTES = 1024 * 1024;

export class StoreHealth {
  private lastFaultAt = Number.NEGATIVE_INFINITY;
  private probing: Promise<Readiness> | null = null;
  /** The last probe write while it runs, which may outlast its probe: a store that hangs is not asked again meanwhile. */
  private writing: Promise<Readiness> | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    /** The embedded store's file, whose file system is checked for free space; null for PostgreSQL or memory. */
    private readonly file: string | null,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** A request failed because the store could not serve it. */
  noteFault(): void {
    this.lastFaultAt = this.now();
  }

  /** Whether the store can take a write now; concurrent asks share one probe. */
  readiness(): Promise<Readiness> {
    if (this.now() - this.lastFaultAt < FAULT_MEMORY_MS) {
      return Promise.resolve({ ready: false, reason: `a request failed on the store in the last ${FAULT_MEMORY_MS / 1000} s` });
    }
    this.probing ??= this.probe().finally(() => (this.probing = null));
    return this.probing;
  }

  private async probe(): Promise<Readiness> {
    if (this.file !== null) {
      try {
        const disk = await statfs(dirname(this.file));
        if (disk.bavail * disk.bsize < MIN_FREE_BYTES) return { ready: false, reason: `the disk holding the store has less than ${MIN_FREE_BYTES / 1024 / 1024} MiB free` };
      } catch (error) {
        return { ready: false, reason: 'the directory of the store cannot be read', cause: error };
      }
    }
    this.writing ??= this.write().finally(() => (this.writing = null));
    const write = this.writing;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<Readiness>((resolve) => {
      timer = setTimeout(() => resolve({ ready: false, reason: `the store did not take a write within ${PROBE_TIMEOUT_MS / 1000} s` }), PROBE_TIMEOUT_MS);
    });
    try {
      return await Promise.race([write, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  private write(): Promise<Readiness> {
    const at = new Date().toISOString();
    return this.db
      .insertInto('store_probes')
      .values({ name: 'readiness', probed_at: at })
      .onConflict((oc) => oc.column('name').doUpdateSet({ probed_at: at }))
      .execute()
      .then(
        (): Readiness => ({ ready: true }),
        (error: unknown): Readiness => ({ ready: false, reason: 'the store refused a write', cause: error }),
      );
  }
}
