// Timing helpers shared by the benchmarks: medians and 95th percentiles of repeated calls.

/** Median and 95th percentile of a list of timings (ms); sorts the list in place. */
export function medianP95(t) {
  t.sort((a, b) => a - b);
  return { median: t[Math.floor(t.length / 2)], p95: t[Math.min(t.length - 1, Math.floor(t.length * 0.95))] };
}

/** Median (and p95) of `runs` wall-clock timings of fn, after `warmup` calls. */
export async function time(fn, runs = 20, warmup = 3) {
  for (let i = 0; i < warmup; i++) await fn(i);
  const t = [];
  for (let i = 0; i < runs; i++) {
    const s = performance.now();
    await fn(i);
    t.push(performance.now() - s);
  }
  return medianP95(t);
}
