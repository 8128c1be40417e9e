import type { Maybe, OneOrMany } from '../../contracts/callbacks.js';

/** Runs callbacks in order until one returns something; that value, or undefined. */
export async function firstResult<TArgs, TResult>(
  callbacks: OneOrMany<(args: TArgs) => Maybe<TResult>> | undefined,
  args: TArgs,
): Promise<TResult | undefined> {
  if (callbacks === undefined) return undefined;
  const list = typeof callbacks === 'function' ? [callbacks] : callbacks;
  for (const callback of list as readonly ((args: TArgs) => Maybe<TResult>)[]) {
    const result = await callback(args);
    if (result !== undefined && result !== null) return result as TResult;
  }
  return undefined;
}
