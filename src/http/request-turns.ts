// Requests start in the order they were read, and a turn of the event loop starts only as many as fit in
// a short budget of time. A request's work on SQLite runs to its end without yielding (statements are
// synchronous), so without turns a process under load answers each request in the callback that read
// it, and reads the other connections only when that callback ends. Under 64 busy connections that
// starved some of them for whole seconds: a bare node:http server spending 0.7 ms a request answered
// 49 ms at the median and 0.8–1.2 s at the 99th percentile; the same server starting one request per
// turn, 51 ms and 55–69 ms (bench/CHANGES.md, "Requests in turns"). One request per turn, though, caps a
// process whose requests mostly wait (PostgreSQL, Redis) at a request per turn; within the budget a turn
// starts as many as it has read.

/** Defers a call to after the event loop's next read of its connections; tests pass their own. */
export type NextTurn = (call: () => void) => void;

export interface RequestTurns {
  /** Calls `start` when the request's turn comes, after every request taken before it. */
  take(start: () => void): void;
  /** Requests taken and not yet started. */
  readonly waiting: number;
}

/** Time a turn spends starting requests (and running their synchronous parts) before it yields, ms. */
export const TURN_BUDGET_MS = 1;

/**
 * Each request taken schedules one call to `startNext`. The calls of a turn run one after another, each
 * after the synchronous part of the request before it (Node runs the promise jobs between two immediates),
 * and start the oldest request waiting. Once the turn's budget is spent, the remaining calls move to the
 * next turn, behind a call that opens that turn's budget: the requests keep their order.
 */
export function requestTurns(nextTurn: NextTurn = setImmediate, now: () => number = () => performance.now()): RequestTurns {
  const queue: (() => void)[] = [];
  let turnBegan = now();
  let yielded = false;

  const openTurn = () => {
    yielded = false;
    turnBegan = now();
  };

  const startNext = () => {
    if (!yielded && now() - turnBegan > TURN_BUDGET_MS) {
      yielded = true;
      nextTurn(openTurn);
    }
    if (yielded) {
      nextTurn(startNext);
      return;
    }
    queue.shift()!();
  };

  return {
    take(start) {
      // A request read after an idle spell opens a turn of its own.
      if (queue.length === 0 && !yielded) turnBegan = now();
      queue.push(start);
      nextTurn(startNext);
    },
    get waiting() {
      return queue.length;
    },
  };
}
