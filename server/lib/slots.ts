/**
 * At most `size` of one kind of work at once; the rest wait their turn in order, each for
 * `waitMs` at most, then fail with `tooBusy()`: a kind of request that can hold database
 * connections for long cannot take all of the pool, and a request that waited too long
 * is answered (OVERLOADED, say) rather than queued behind work the server cannot finish.
 */
export class Slots {
  private free: number;
  private waiting: (() => void)[] = [];

  constructor(
    size: number,
    private readonly waitMs: number,
    private readonly tooBusy: () => Error,
  ) {
    this.free = size;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free--;
    else await this.turn();
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    }
  }

  /** Resolves when a finished run hands over its slot; rejects after waitMs. */
  private turn(): Promise<void> {
    return new Promise((resolve, reject) => {
      const handOver = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(handOver), 1);
        reject(this.tooBusy());
      }, this.waitMs);
      this.waiting.push(handOver);
    });
  }
}
