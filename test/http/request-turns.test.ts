import { describe, expect, it } from 'vitest';
import { requestTurns, TURN_BUDGET_MS } from '../../src/http/request-turns.js';
import { startTestService } from '../support/service.js';
import { eventually } from '../support/waiting.js';

/** Turns of a pretend event loop, and its clock: `turn()` runs what was deferred before it. */
function pretendLoop() {
  let deferred: (() => void)[] = [];
  let time = 0;
  return {
    nextTurn: (call: () => void) => void deferred.push(call),
    now: () => time,
    /** A request's synchronous part taking this long. */
    spend: (ms: number) => void (time += ms),
    turn() {
      const due = deferred;
      deferred = [];
      for (const call of due) call();
    },
  };
}

describe('requests in turns', () => {
  it('requests read before a turn start in that turn, in the order they were read', () => {
    const loop = pretendLoop();
    const turns = requestTurns(loop.nextTurn, loop.now);
    const started: string[] = [];
    for (const name of ['a', 'b', 'c']) turns.take(() => started.push(name));
    expect(started).toEqual([]);
    expect(turns.waiting).toBe(3);
    loop.turn();
    expect(started).toEqual(['a', 'b', 'c']);
    expect(turns.waiting).toBe(0);
  });

  it('a turn that has spent its budget leaves the other requests to the next turns, in their order', () => {
    const loop = pretendLoop();
    const turns = requestTurns(loop.nextTurn, loop.now);
    const started: string[] = [];
    const slow = (name: string) => () => {
      started.push(name);
      loop.spend(TURN_BUDGET_MS * 0.6);
    };
    for (const name of ['a', 'b', 'c', 'd']) turns.take(slow(name));
    loop.turn();
    expect(started).toEqual(['a', 'b']);
    // Read while the others wait: behind them.
    turns.take(slow('e'));
    loop.turn();
    expect(started).toEqual(['a', 'b', 'c', 'd']);
    loop.turn();
    expect(started).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(turns.waiting).toBe(0);
  });

  it('a request read after an idle spell has a whole budget', () => {
    const loop = pretendLoop();
    const turns = requestTurns(loop.nextTurn, loop.now);
    const started: string[] = [];
    loop.spend(60_000);
    turns.take(() => started.push('a'));
    turns.take(() => started.push('b'));
    loop.turn();
    expect(started).toEqual(['a', 'b']);
  });

  it('requests a process has read are not answered before their turn comes', async () => {
    // The loop runs turns by itself until held, so that the service can start. (The order of the starts
    // is the tests' above: answers on PostgreSQL may end in another order than they started.)
    let held: (() => void)[] | null = null;
    const t = await startTestService({}, { nextTurn: (call) => (held ? held.push(call) : setImmediate(call)) });
    try {
      held = [];
      const answered: string[] = [];
      const requests = ['first', 'second', 'third'].map((name) =>
        t.get(`/readyz?${name}`).then((response) => {
          expect(response.statusCode).toBe(200);
          answered.push(name);
        }),
      );
      // Each request waiting for its turn has left a call for it.
      await eventually('the three requests to take their turns', () => held!.length === 3);
      expect(answered).toEqual([]);
      expect(held.length).toBe(3);
      const due = held;
      held = null;
      for (const call of due) call();
      await Promise.all(requests);
      expect(answered.sort()).toEqual(['first', 'second', 'third']);
    } finally {
      held = null;
      await t.close();
    }
  });
});
