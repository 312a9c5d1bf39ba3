/**
 * A filter's total: exact, or an estimate; found when the jobs were of `generation`; and
 * how many entries of the trigram index's lists it decodes for it (what its page costs that
 * way).
 */
export interface Total {
  count: number;
  estimate: boolean;
  generation: number;
  listed: number;
}

/** How many filters' totals a server keeps: a few hundred kB, whatever the job count. */
const MAX_FILTERS = 10_000;

/**
 * The totals of filters found on one database, the least recently used given up first.
 * A total is offered only while the jobs are of the generation it was found at (read from
 * the database with each list: a change on any server moves it on), so a filter asked
 * again costs its page alone.
 */
export class FilterTotals {
  private totals = new Map<string, Total>();

  /** The filter's total, when found at `generation`. */
  get(filter: string, generation: number): Total | undefined {
    const total = this.totals.get(filter);
    if (total?.generation !== generation) return undefined;
    // Used: to the back of the line.
    this.totals.delete(filter);
    this.totals.set(filter, total);
    return total;
  }

  keep(filter: string, total: Total): Total {
    this.totals.delete(filter);
    this.totals.set(filter, total);
    if (this.totals.size > MAX_FILTERS) this.totals.delete(this.totals.keys().next().value!);
    return total;
  }
}
