// Markers for Python values that JSON and JavaScript cannot tell apart from others: a float with an integral value, a tuple.

/** A number that Python holds as a float: `pyFloat(1)` prints as `1.0` under the python value format. */
export class PyFloat {
  readonly value: number;
  constructor(value: number) {
    this.value = value;
  }
  toJSON(): number {
    return this.value;
  }
  toString(): string {
    return String(this.value);
  }
}

/** A Python tuple: prints as `(1,)` or `(1, 2)` under the python value format, as a JSON array elsewhere. */
export class PyTuple {
  readonly items: readonly unknown[];
  constructor(items: readonly unknown[]) {
    this.items = items;
  }
  toJSON(): readonly unknown[] {
    return this.items;
  }
}

export function pyFloat(value: number): PyFloat {
  return new PyFloat(value);
}

export function pyTuple(...items: unknown[]): PyTuple {
  return new PyTuple(items);
}
