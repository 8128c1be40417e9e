import type { StateOp } from '../../contracts/state-op.js';
import { setOwn } from '../util/copy-value.js';
import { applyStateOp } from './apply-state-op.js';
import type { StateRecord } from './state-delta.js';

/**
 * What a writer changed, as an event carries it: values set (`stateDelta`) and operations (`stateOps`), applied
 * delta first, then the operations in order. Kept so that a key is never in both: a set replaces the key's
 * operations, and an operation on a key already set changes the value set instead.
 */
export type StateChanges = { delta: StateRecord; ops: StateOp[] };

/** Records `key = value`: the value goes in the delta, and operations recorded on the key before are dropped. */
export function recordSet(changes: StateChanges, key: string, value: unknown): void {
  setOwn(changes.delta, key, value);
  for (let index = changes.ops.length - 1; index >= 0; index--)
    if (changes.ops[index]?.key === key) changes.ops.splice(index, 1);
}

/**
 * Records an operation: on a key the delta sets, the value set becomes the result (throws `ValidationError` when it
 * cannot apply); otherwise it folds into the key's last operation when the two make one (adds of safe integers,
 * appends, additions to a set, two sets of one field), or is added at the end.
 */
export function recordOp(changes: StateChanges, op: StateOp): void {
  if (Object.hasOwn(changes.delta, op.key)) {
    setOwn(changes.delta, op.key, applyStateOp(changes.delta[op.key], op));
    return;
  }
  let last = changes.ops.length - 1;
  while (last >= 0 && changes.ops[last]?.key !== op.key) last -= 1;
  const folded = last < 0 ? undefined : fold(changes.ops[last] as StateOp, op);
  if (folded === undefined) changes.ops.push(op);
  else changes.ops[last] = folded;
}

/** Adds `from`'s changes to `into`, as if made after them. An operation that cannot apply to a value set is dropped. */
export function mergeStateChanges(
  into: StateChanges,
  from: { delta: Readonly<StateRecord>; ops: readonly StateOp[] },
): void {
  for (const [key, value] of Object.entries(from.delta)) recordSet(into, key, value);
  for (const op of from.ops) {
    try {
      recordOp(into, op);
    } catch {
      // Parallel writers of one key: the value set stands, as it does in the state the invocation sees.
    }
  }
}

// One operation doing what `first` then `second` do, when there is one. Adds fold only while exact: floating-point
// addition is not associative, so (x + 0.1) + 0.2 and x + 0.30000000000000004 may differ.
function fold(first: StateOp, second: StateOp): StateOp | undefined {
  if (first.op === 'add' && second.op === 'add') {
    const by = first.by + second.by;
    return Number.isSafeInteger(first.by) && Number.isSafeInteger(second.by) && Number.isSafeInteger(by)
      ? { op: 'add', key: first.key, by }
      : undefined;
  }
  if (first.op === 'append' && second.op === 'append')
    return { op: 'append', key: first.key, items: first.items.concat(second.items) };
  if (first.op === 'addToSet' && second.op === 'addToSet')
    return { op: 'addToSet', key: first.key, items: [...first.items, ...second.items] };
  if (first.op === 'setField' && second.op === 'setField' && first.field === second.field) return second;
  return undefined;
}

/** The changes an event carries, for `recordSet`/`recordOp` to add to. */
export function stateChangesOf(actions: { stateDelta: StateRecord; stateOps?: StateOp[] | undefined }): StateChanges {
  return { delta: { ...actions.stateDelta }, ops: [...(actions.stateOps ?? [])] };
}

/** The fields of an event's actions for these changes: `stateOps` only when there are some. */
export function stateActions(changes: StateChanges): { stateDelta: StateRecord; stateOps?: StateOp[] } {
  return changes.ops.length === 0
    ? { stateDelta: changes.delta }
    : { stateDelta: changes.delta, stateOps: changes.ops };
}

/** An operation in a few words, as the CLI and the inspector show it: `user:turns += 1`, `log append ["x"]`. */
export function describeStateOp(
  op: StateOp,
  show: (value: unknown) => string = (value) => JSON.stringify(value) ?? 'null',
): string {
  if (op.op === 'add') return op.by < 0 ? `${op.key} -= ${-op.by}` : `${op.key} += ${op.by}`;
  if (op.op === 'setField') return `${op.key}.${op.field} = ${show(op.value)}`;
  return `${op.key} ${op.op} ${show(op.items)}`;
}
