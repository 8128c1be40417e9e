type Row = { timestamp: number; depth?: number };

/**
 * An invocation's rows ordered by time. Rows nested under a tool call (depth > 0) move with the row before them, so
 * a sub-agent's calls stay under the tool call that made them. Rows at the same time keep the order they were placed
 * in (the sort is stable): what led to a call (the user's message, a tool's result) comes before it, and the call
 * before the event that carried its answer.
 */
export function orderByTime<T extends Row>(rows: readonly T[]): T[] {
  const groups: T[][] = [];
  for (const row of rows) {
    const last = groups.at(-1);
    if ((row.depth ?? 0) > 0 && last !== undefined) last.push(row);
    else groups.push([row]);
  }
  return groups.sort((a, b) => (a[0] as T).timestamp - (b[0] as T).timestamp).flat();
}
