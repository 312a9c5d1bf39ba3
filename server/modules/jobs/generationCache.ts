/**
 * What a server found out about the jobs of one database, by key, kept while the jobs are
 * of the generation it was found at (job_totals.generation, read from the database with
 * each filtered list: a change on any server, or by plain SQL, moves it on), the least
 * recently used given up first past `size` entries. Bounded by entries, whatever the jobs.
 */
export class GenerationCache<Value> {
  private entries = new Map<string, { value: Value; generation: number }>();

  constructor(private readonly size: number) {}

  /** The value kept for `key`, when found at `generation`. */
  get(key: string, generation: number): Value | undefined {
    const entry = this.entries.get(key);
    if (entry?.generation !== generation) return undefined;
    // Used: to the back of the line.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Whether a value is kept for `key`, found at whatever generation. */
  knows(key: string): boolean {
    return this.entries.has(key);
  }

  keep(key: string, generation: number, value: Value): Value {
    this.entries.delete(key);
    this.entries.set(key, { value, generation });
    if (this.entries.size > this.size) this.entries.delete(this.entries.keys().next().value!);
    return value;
  }
}

/**
 * Work asked for again while it runs is not started again: later callers share the first
 * one's answer (people typing the same filter at once; everyone asking again after a change
 * moved the generation on).
 */
export class SharedWork<Value> {
  private running = new Map<string, Promise<Value>>();

  run(key: string, work: () => Promise<Value>): Promise<Value> {
    let answer = this.running.get(key);
    if (!answer) {
      answer = work().finally(() => this.running.delete(key));
      this.running.set(key, answer);
    }
    return answer;
  }
}
