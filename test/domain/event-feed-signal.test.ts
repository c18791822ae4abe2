// The wake-ups of requests waiting on the events feed (src/domain/event-feed-signal.ts): a commit that
// recorded an event wakes them, one that did not does not; a wake-up during a read is not lost; a key holds
// at most its share; closing answers everyone.
import { describe, expect, it } from 'vitest';
import { EventFeedSignal, FALLBACK_MS } from '../../src/domain/event-feed-signal.js';

const settle = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));

function resolvedSoon(promise: Promise<unknown>): Promise<boolean> {
  return Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 100))]);
}

describe('EventFeedSignal', () => {
  it('wakes waiters after a commit that recorded an event, not after one that did not', async () => {
    let newest = 1;
    const signal = new EventFeedSignal(async () => newest);
    const wait = signal.hold('key', signal.generation)!;
    signal.committed();
    await settle();
    // The first look only learns where the outbox stands (and wakes once, to be safe).
    await resolvedSoon(wait.next(10_000));
    wait.look();
    const quiet = wait.next(10_000);
    signal.committed();
    expect(await resolvedSoon(quiet)).toBe(false);
    newest = 2;
    signal.committed();
    expect(await resolvedSoon(quiet)).toBe(true);
    wait.release();
  });

  it('does not lose a wake-up that came while the waiter was reading', async () => {
    const signal = new EventFeedSignal(async () => 1);
    const before = signal.generation;
    signal.notified();
    const wait = signal.hold('key', before)!;
    expect(await resolvedSoon(wait.next(10_000))).toBe(true);
    wait.release();
  });

  it('holds at most its share per key, gives a place back on release, and answers everyone when closing', async () => {
    const signal = new EventFeedSignal(async () => 1, 2);
    const first = signal.hold('a', signal.generation)!;
    const second = signal.hold('a', signal.generation)!;
    expect(signal.hold('a', signal.generation)).toBeNull();
    const other = signal.hold('b', signal.generation)!;
    expect(other).not.toBeNull();
    first.release();
    first.release();
    const again = signal.hold('a', signal.generation)!;
    expect(again).not.toBeNull();
    expect(signal.hold('a', signal.generation)).toBeNull();

    const pending = second.next(10_000);
    expect(signal.waiting).toBe(1);
    signal.close();
    expect(await resolvedSoon(pending)).toBe(true);
    expect(signal.closing).toBe(true);
    for (const wait of [second, other, again]) wait.release();
  });

  it('looks again on its own after FALLBACK_MS at most', async () => {
    const signal = new EventFeedSignal(async () => 1);
    const wait = signal.hold('key', signal.generation)!;
    const started = Date.now();
    expect(await wait.next(60_000)).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(FALLBACK_MS - 50);
    expect(Date.now() - started).toBeLessThan(FALLBACK_MS + 1000);
    wait.release();
  });
});
