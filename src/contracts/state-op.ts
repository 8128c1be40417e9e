/**
 * A change to one state key that commutes with the same kind of change made by another writer: add to a number,
 * append to a list, set one field of an object, add to a list without duplicates. A store applies it to the value
 * it holds when the write lands, never to the (possibly stale) value a session copy read, so two sessions that
 * change one shared key this way never conflict. Keys carry their scope prefix (`app:`, `user:`, `temp:`), as in a
 * state delta. `applyStateOp` gives the exact semantics.
 */
export type StateOp =
  /** The number plus `by` (a finite number); an absent key becomes `by`. */
  | { op: 'add'; key: string; by: number }
  /** The list with `items` at its end; an absent key becomes `items`. */
  | { op: 'append'; key: string; items: unknown[] }
  /** A copy of the object with `field` set to `value` (an existing field keeps its place); an absent key becomes `{ [field]: value }`. */
  | { op: 'setField'; key: string; field: string; value: unknown }
  /** The list with each of `items` appended unless an equal JSON value is already in it; an absent key counts as `[]`. */
  | { op: 'addToSet'; key: string; items: unknown[] };

/** The name of a state operation: `add`, `append`, `setField`, `addToSet`. */
export type StateOpName = StateOp['op'];
