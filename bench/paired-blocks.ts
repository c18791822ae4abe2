// What a variant of one operation costs against the operation itself (an audited write against a plain
// one, a keyed write against an unkeyed one), measured in one process: short blocks of each, side by
// side, in the order ABBA ABBA… so that neither always runs first, and the ratio is the median of the
// blocks' pairs. First-then-second blocks of 50 summed, as these benchmarks did before, read 0.93–1.09
// for the same write compared with itself on this machine (a checkpoint, a collection or a neighbour's
// burst lands in one block of a pair and moves the sum); the median of the pairs read 0.99–1.01
// (bench/CHANGES.md, "Issue 42, second session").

/** Operations per block: short, so that a pause lands in few pairs. */
const BLOCK = 10;

export interface PairedCost {
  /** Operations of each kind timed. */
  operations: number;
  /** Mean time of one operation without and with the variant, in µs. */
  withoutUs: number;
  withUs: number;
  /** The median of the pairs' ratios (with / without). */
  ratio: number;
  /** The pairs' ratios at the first and third quartile: how much they spread. */
  quartiles: [number, number];
}

/** Runs `operation(false)` and `operation(true)` `operations` times each, after a block of each to warm up. */
export async function pairedCost(operations: number, operation: (variant: boolean) => Promise<unknown>): Promise<PairedCost> {
  const block = async (variant: boolean) => {
    const started = performance.now();
    for (let i = 0; i < BLOCK; i++) await operation(variant);
    return performance.now() - started;
  };
  // Warm both paths (prepared statements, JIT) before timing.
  await block(false);
  await block(true);
  let without = 0;
  let withVariant = 0;
  const ratios: number[] = [];
  const pairs = Math.max(1, Math.round(operations / BLOCK));
  for (let pair = 0; pair < pairs; pair++) {
    const first = pair % 2 === 1;
    const a = first ? await block(true) : await block(false);
    const b = first ? await block(false) : await block(true);
    const [plain, variant] = first ? [b, a] : [a, b];
    without += plain;
    withVariant += variant;
    ratios.push(variant / plain);
  }
  ratios.sort((x, y) => x - y);
  const at = (q: number) => ratios[Math.min(ratios.length - 1, Math.floor(q * ratios.length))]!;
  const timed = pairs * BLOCK;
  return { operations: timed, withoutUs: (without / timed) * 1000, withUs: (withVariant / timed) * 1000, ratio: at(0.5), quartiles: [at(0.25), at(0.75)] };
}
