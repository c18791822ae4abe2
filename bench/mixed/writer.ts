// The mixed benchmark's writer: edits guides through the management API at a steady rate while wrk reads,
// as editors do in production. Each edit retitles a random guide among those the readers ask for by id,
// so that cached answers are really affected; the title keeps its words, so searches keep finding it.
// Edits go out on a clock, not one after the other: a slow answer must not lower the rate. With several
// service processes they take turns, as behind a load balancer.
import type { Admin } from '../services.js';
import type { EditableGuide } from './urls.js';

export interface WriteCounts {
  /** Edits answered 2xx, and not (an error status or no answer). */
  made: number;
  failed: number;
  /** The first failure, for the run's problems. */
  firstError: string | null;
}

export interface Writer {
  /** Stops editing, waits for the edits in flight and answers what was done. */
  stop(): Promise<WriteCounts>;
}

export function startWriter(admins: readonly Admin[], guides: readonly EditableGuide[], perSecond: number): Writer {
  const counts: WriteCounts = { made: 0, failed: 0, firstError: null };
  const inFlight = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  if (perSecond > 0 && guides.length > 0) {
    const every = 1000 / perSecond;
    const started = performance.now();
    let sent = 0;
    const edit = () => {
      const guide = guides[Math.floor(Math.random() * guides.length)]!;
      const n = ++sent;
      const done = admins[n % admins.length]!
        .patch(`/guides/${guide.id}`, { title: `${guide.title} · edit ${n}` })
        .then(
          () => void counts.made++,
          (error: unknown) => {
            counts.failed++;
            counts.firstError ??= error instanceof Error ? error.message : String(error);
          },
        );
      inFlight.add(done);
      void done.finally(() => inFlight.delete(done));
      timer = setTimeout(edit, Math.max(0, started + sent * every - performance.now()));
    };
    edit();
  }
  return {
    async stop() {
      clearTimeout(timer);
      await Promise.all(inFlight);
      return counts;
    },
  };
}
