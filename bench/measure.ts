import type autocannon from 'autocannon';

/** A seeded PRNG (mulberry32), so every run of a benchmark sends the same mix. */
export function prng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The `p`th percentile of ascending `sorted`. */
export function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Prints an autocannon run: requests per second, latency percentiles, failures. */
export function reportApi(title: string, result: autocannon.Result) {
  console.log(title);
  console.log(
    `  requests/s ${Math.round(result.requests.average)}   total ${result.requests.total}`,
  );
  console.log(
    `  latency p50 ${result.latency.p50} ms   p97.5 ${result.latency.p97_5} ms   p99 ${result.latency.p99} ms`,
  );
  console.log(`  non-2xx ${result.non2xx}   errors ${result.errors}   timeouts ${result.timeouts}`);
}

/** Milliseconds as the benchmarks print them. */
export const ms = (value: number) => `${value.toFixed(1)} ms`;
