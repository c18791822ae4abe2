// A background loop that runs a cycle, sleeps for as long as the cycle says, and is woken early by
// `wake()` (a write committed, a batch ended). A wake-up that arrives during a cycle is not lost: the
// next sleep returns at once. The worker and the upkeep are both such loops.
import type { FastifyBaseLogger } from 'fastify';

const AFTER_A_FAULT_MS = 1000;

export abstract class WakeableLoop {
  private running = false;
  private woken = false;
  private wakeUp: (() => void) | null = null;
  private loopDone: Promise<void> | null = null;

  constructor(protected readonly log: FastifyBaseLogger) {}

  protected get isRunning(): boolean {
    return this.running;
  }

  /** One turn of the loop; answers how long to sleep before the next (0: at once). */
  protected abstract cycle(): Promise<number>;

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loopDone = this.loop();
  }

  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  /** Stops after the cycle under way. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.wake();
    await this.loopDone;
  }

  private async loop(): Promise<void> {
    while (this.running) {
      this.woken = false;
      const sleepMs = await this.attempt('running a cycle', () => this.cycle());
      await this.sleep(sleepMs ?? 0);
    }
  }

  /** Runs one job; a fault is logged and answered with null after a pause, so the loop goes on. */
  protected async attempt<T>(what: string, work: () => Promise<T>): Promise<T | null> {
    try {
      return await work();
    } catch (error) {
      this.log.error({ err: error }, `${this.constructor.name}: ${what} failed; trying again next cycle`);
      await this.sleep(AFTER_A_FAULT_MS);
      return null;
    }
  }

  private sleep(ms: number): Promise<void> {
    if (this.woken || !this.running) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      const self = this;
      function done() {
        clearTimeout(timer);
        if (self.wakeUp === wakeUp) self.wakeUp = null;
        resolve();
      }
      const wakeUp = () => done();
      this.wakeUp = wakeUp;
    });
  }
}
