// Deleting a large backlog without stopping the service: PRUNE_BATCH rows per statement, with a turn of
// the event loop between two. On the embedded store a statement holds the service's only thread: a
// million attempts and their events took 23 s in two statements, during which nothing else ran; in
// batches, 58 s in all and never more than 0.3 s at a time (bench/CHANGES.md).

/** Rows one pruning statement deletes at most; requests are served between two. */
export const PRUNE_BATCH = 1000;

/** Runs `batch` (which answers the rows it deleted) until one deletes fewer than a whole batch. */
export async function inBatches(batch: () => Promise<number>): Promise<void> {
  while ((await batch()) >= PRUNE_BATCH) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** The rows a delete answered it deleted. */
export const deleted = (result: { numDeletedRows: bigint } | undefined) => Number(result?.numDeletedRows ?? 0);
