// The failing lane's pace (src/webhooks/start-pace.ts): a tenth of a second's starts saved up at most,
// and, once they run low, starts taken a twentieth of a second's worth at a time, so that a wave of
// failures is claimed in groups rather than a probe per claim. Time is a number of milliseconds here.
import { describe, expect, it } from 'vitest';
import { StartPace } from '../../src/webhooks/start-pace.js';

describe('the failing lane\'s start pace', () => {
  it('allows a tenth of a second\'s starts at once when it has saved them up', () => {
    const pace = new StartPace(256, 0);
    expect(pace.allowed(0)).toBe(26);
    expect(pace.allowed(10_000)).toBe(26);
  });

  it('lets a lone start go at once, and the next one too, while the saved-up starts last', () => {
    const pace = new StartPace(256, 0);
    pace.took(1);
    expect(pace.allowed(0)).toBe(25);
    expect(pace.nextAt(0)).toBe(0);
  });

  it('once the saved-up starts run low, waits for a twentieth of a second\'s worth and lets them go together', () => {
    const pace = new StartPace(200, 0);
    pace.took(pace.allowed(0)); // 20 taken: none left
    expect(pace.allowed(0)).toBe(0);
    // One start comes back every 5 ms, but none is allowed before there are ten.
    expect(pace.allowed(5)).toBe(0);
    expect(pace.allowed(45)).toBe(0);
    expect(pace.nextAt(45)).toBeCloseTo(50);
    expect(pace.allowed(50)).toBe(10);
    pace.took(3);
    // Seven left, fewer than a group: the lane waits again until there are ten.
    expect(pace.allowed(50)).toBe(0);
    expect(pace.nextAt(50)).toBeCloseTo(65);
  });

  it('never starts more than its rate over time, however often it is asked', () => {
    const pace = new StartPace(200, 0);
    let started = 0;
    for (let now = 0; now <= 1000; now++) {
      const allowed = pace.allowed(now);
      pace.took(allowed);
      started += allowed;
    }
    // The tenth of a second saved up at the start, and the rate for the second after it.
    expect(started).toBeLessThanOrEqual(20 + 200);
    expect(started).toBeGreaterThanOrEqual(200);
  });

  it('at a slow pace, starts one at a time: one saved up, then one each 1 / rate', () => {
    const pace = new StartPace(2, 0);
    expect(pace.allowed(0)).toBe(1);
    pace.took(1);
    expect(pace.allowed(499)).toBe(0);
    expect(pace.nextAt(499)).toBeCloseTo(500);
    expect(pace.allowed(500)).toBe(1);
  });
});
