/** Median of a list of timings. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** Runs `task` `warmup` times unmeasured, then `runs` times, and returns each run's milliseconds. */
export async function time(task: () => unknown, runs: number, warmup = Math.ceil(runs / 5)): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await task();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    await task();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return samples;
}
