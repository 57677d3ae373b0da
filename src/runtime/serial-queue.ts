/**
 * @module One serial queue: tasks run one after another, in the order they were enqueued, and a failed task
 * never stops the ones after it. The chunk writer, the Discord recorder and the back-fill share it instead
 * of each chaining promises by hand.
 */

export class SerialQueue {
  /** Settles when the last task enqueued has; never rejects, so one failure does not stop the queue. */
  #tail: Promise<unknown> = Promise.resolve();
  #enqueued = 0;

  /** How many tasks were ever enqueued: a waiter that also waits on other things compares it to see new ones. */
  get enqueued(): number {
    return this.#enqueued;
  }

  /** Runs `task` after every task enqueued before it; resolves or rejects as the task does. */
  enqueue<T>(task: () => T | Promise<T>): Promise<T> {
    this.#enqueued += 1;
    const run = this.#tail.then(task);
    this.#tail = run.catch(() => undefined);
    return run;
  }

  /** Resolves once every task enqueued so far has settled, and those enqueued meanwhile too. */
  async idle(): Promise<void> {
    for (;;) {
      const tail = this.#tail;
      await tail;
      if (tail === this.#tail) return;
    }
  }
}
