/**
 * Where two JSON values differ in shape, not in value: a key one has and the other lacks, or a different type
 * (`null`, boolean, number, string, array, object) at the same path. Arrays are compared element by element up to
 * the shorter one, and a different length is a difference of its own. Paths look like `events[2].actions.stateDelta`.
 */
export function shapeDifferences(ours: unknown, theirs: unknown, path = ''): string[] {
  const a = kind(ours);
  const b = kind(theirs);
  if (a !== b) return [`${path || '(root)'}: ${a} here, ${b} in ADK`];
  if (a === 'array') {
    const left = ours as unknown[];
    const right = theirs as unknown[];
    const found =
      left.length === right.length ? [] : [`${path || '(root)'}: ${left.length} items here, ${right.length} in ADK`];
    for (let index = 0; index < Math.min(left.length, right.length); index++)
      found.push(...shapeDifferences(left[index], right[index], `${path}[${index}]`));
    return found;
  }
  if (a !== 'object') return [];
  const left = ours as Record<string, unknown>;
  const right = theirs as Record<string, unknown>;
  const found: string[] = [];
  for (const key of new Set([...Object.keys(left), ...Object.keys(right)])) {
    const at = path === '' ? key : `${path}.${key}`;
    if (!Object.hasOwn(right, key)) found.push(`${at}: only here`);
    else if (!Object.hasOwn(left, key)) found.push(`${at}: only in ADK`);
    else found.push(...shapeDifferences(left[key], right[key], at));
  }
  return found;
}

function kind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
