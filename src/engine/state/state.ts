import { ValidationError } from '../../contracts/errors/validation-error.js';
import type { StateOp } from '../../contracts/state-op.js';
import { JSON_VALUE_HINT, stateOpIssues } from './state-rules.js';
import { copyValue, setOwn } from '../util/copy-value.js';
import { applyStateOp } from './apply-state-op.js';
import { recordOp, recordSet } from './state-changes.js';
import type { StateRecord } from './state-delta.js';
import { isTempKey } from './state-keys.js';

/**
 * The state an invocation works with: reads see the session's merged state plus everything written so far,
 * writes are recorded in a delta (values) and a list of operations that travel on the next event. Values go in and
 * come out as copies, so mutating a value read from state never changes storage, another session, or this view.
 */
export class State {
  readonly #base: StateRecord;
  readonly #delta: StateRecord;
  readonly #ops: StateOp[];
  // Lists this view made (results of its own operations, its own folded appends): only these change in place.
  readonly #owned = new WeakSet<unknown[]>();

  /** `base` is the state the writes land in (a session's live state); `delta` and `ops` collect the writes. */
  constructor(base: StateRecord, delta: StateRecord = {}, ops: StateOp[] = []) {
    this.#base = base;
    this.#delta = delta;
    this.#ops = ops;
  }

  get<T = unknown>(key: string): T | undefined;
  get<T>(key: string, fallback: T): T;
  get(key: string, fallback?: unknown): unknown {
    if (Object.hasOwn(this.#delta, key)) return copyValue(this.#delta[key]);
    if (Object.hasOwn(this.#base, key)) return copyValue(this.#base[key]);
    return fallback;
  }

  has(key: string): boolean {
    return Object.hasOwn(this.#delta, key) || Object.hasOwn(this.#base, key);
  }

  set(key: string, value: unknown): void {
    const stored = copyValue(value);
    // Own properties even for `__proto__`, which the store then refuses by name instead of a prototype changing here.
    setOwn(this.#base, key, stored);
    recordSet({ delta: this.#delta, ops: this.#ops }, key, copyValue(stored));
  }

  update(values: Readonly<StateRecord>): void {
    for (const [key, value] of Object.entries(values)) this.set(key, value);
  }

  add(key: string, by: number): void {
    this.#operate({ op: 'add', key, by });
  }

  append(key: string, ...items: unknown[]): void {
    this.#operate({ op: 'append', key, items });
  }

  setField(key: string, field: string, value: unknown): void {
    this.#operate({ op: 'setField', key, field, value });
  }

  addToSet(key: string, ...items: unknown[]): void {
    this.#operate({ op: 'addToSet', key, items });
  }

  /** True once anything was written through this view. */
  hasDelta(): boolean {
    return Object.keys(this.#delta).length > 0 || this.#ops.length > 0;
  }

  /** A copy of the pending writes. */
  delta(): StateRecord {
    return copyValue(this.#delta);
  }

  /** A copy of the pending operations. */
  stateOps(): StateOp[] {
    return copyValue(this.#ops);
  }

  /** A copy of everything visible, optionally without `temp:` keys. */
  toRecord(options: { includeTemp?: boolean } = {}): StateRecord {
    const record: StateRecord = {};
    for (const source of [this.#base, this.#delta]) {
      for (const [key, value] of Object.entries(source)) {
        if (options.includeTemp === false && isTempKey(key)) continue;
        setOwn(record, key, value);
      }
    }
    return copyValue(record);
  }

  // Checked here, so a bad call fails in the tool that made it; applied to the visible value at once, as `set`
  // of the result would be; recorded to travel on the next event (a `temp:` key's only locally).
  #operate(given: StateOp): void {
    const issues = stateOpIssues([given], '', { values: true }).map((issue) => ({
      ...issue,
      path: issue.path.replace(/^\[0\]\.?/, ''),
    }));
    if (issues.length > 0) {
      const json = issues.some((issue) => issue.message.startsWith('cannot be stored as JSON'));
      throw new ValidationError({
        subject: `state operation ${given.op} on ${JSON.stringify(given.key)}`,
        issues,
        ...(json ? { hint: JSON_VALUE_HINT } : {}),
      });
    }
    const op = copyValue(given);
    const key = op.key;
    if (op.op === 'append' && this.#appendInPlace(op)) return;
    const current = Object.hasOwn(this.#delta, key)
      ? this.#delta[key]
      : Object.hasOwn(this.#base, key)
        ? this.#base[key]
        : undefined;
    const result = applyStateOp(current, copyValue(op));
    setOwn(this.#base, key, result);
    if (Array.isArray(result)) this.#owned.add(result);
    if (isTempKey(key) && !Object.hasOwn(this.#delta, key)) return;
    recordOp({ delta: this.#delta, ops: this.#ops }, op);
    // Lists just made by this view, which later appends may extend in place (#appendInPlace).
    if (Object.hasOwn(this.#delta, key)) {
      const listed = this.#delta[key];
      if (Array.isArray(listed)) this.#owned.add(listed);
    } else {
      const recorded = this.#ops.at(-1);
      if (recorded?.key === key && recorded.op === 'append') this.#owned.add(recorded.items);
    }
  }

  /**
   * An append to a list this view made itself (the result of an earlier operation here): pushed in place, and folded
   * into this view's own last append of the key, instead of copying the whole list each time — 20,000 appends in one
   * tool took 19 s. Lists that came from elsewhere (the session, an event) are never changed in place: the first
   * append copies them, as any operation does. False when it does not apply.
   */
  #appendInPlace(op: Extract<StateOp, { op: 'append' }>): boolean {
    const key = op.key;
    // The base is the session's live state, which other views of it (parallel tool calls) read: it is kept current.
    const visible = this.#base[key];
    if (!Array.isArray(visible) || !this.#owned.has(visible)) return false;
    if (Object.hasOwn(this.#delta, key)) {
      const listed = this.#delta[key];
      if (!Array.isArray(listed) || !this.#owned.has(listed)) return false;
      pushAll(visible, copyValue(op.items));
      pushAll(listed, op.items);
      return true;
    }
    if (isTempKey(key)) {
      pushAll(visible, op.items);
      return true;
    }
    let last = this.#ops.length - 1;
    while (last >= 0 && this.#ops[last]?.key !== key) last -= 1;
    const previous = this.#ops[last];
    if (previous?.op !== 'append' || !this.#owned.has(previous.items)) return false;
    pushAll(visible, copyValue(op.items));
    pushAll(previous.items, op.items);
    return true;
  }
}

/** Pushes one by one: spreading tens of thousands of items into one call would overflow the stack. */
function pushAll(list: unknown[], items: readonly unknown[]): void {
  for (const item of items) list.push(item);
}
