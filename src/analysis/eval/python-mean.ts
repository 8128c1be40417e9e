// Python's `statistics.mean` over floats: the exact sum of the values (as fractions), divided by their count, rounded
// once to the nearest double (ties to even). A running sum in doubles rounds at every step and can end an ulp away,
// which shows in the 17 digits Python prints.

const SCALE = 1074n; // every finite double is an integer multiple of 2^-1074

/** The correctly rounded mean; `NaN` for none; an infinity or NaN among them gives what Python gives (their sum's). */
export function pythonMean(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  if (values.some((value) => !Number.isFinite(value))) return values.reduce((sum, value) => sum + value, 0);
  let sum = 0n;
  for (const value of values) sum += scaled(value);
  return nearestDouble(sum, BigInt(values.length) << SCALE);
}

// value × 2^1074, exactly, as an integer.
function scaled(value: number): bigint {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  const bits = view.getBigUint64(0);
  const exponent = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  // Subnormals have no hidden bit and the exponent of the smallest normal.
  const mantissa = exponent === 0 ? fraction : fraction | (1n << 52n);
  const shift = BigInt(Math.max(exponent, 1) - 1);
  const magnitude = mantissa << shift;
  return bits >> 63n === 1n ? -magnitude : magnitude;
}

// p / q (q > 0) rounded to the nearest double, ties to even.
function nearestDouble(p: bigint, q: bigint): number {
  if (p === 0n) return 0;
  const negative = p < 0n;
  const top = negative ? -p : p;
  // A 54-bit quotient keeps the rounding bit; stop at 2^-1074, below which no double has bits.
  let shift = 54 - (bitLength(top) - bitLength(q));
  if (shift > 1074 + 1) shift = 1074 + 1;
  let quotient = shift >= 0 ? (top << BigInt(shift)) / q : top / (q << BigInt(-shift));
  let exact = shift >= 0 ? quotient * q === top << BigInt(shift) : quotient * (q << BigInt(-shift)) === top;
  // Down to 53 bits (or to the subnormal grid): the dropped bits decide the rounding.
  const keep = Math.min(53, bitLength(quotient) - Math.max(0, shift - 1074));
  const drop = bitLength(quotient) - keep;
  if (drop > 0) {
    const dropped = quotient & ((1n << BigInt(drop)) - 1n);
    quotient >>= BigInt(drop);
    const half = 1n << BigInt(drop - 1);
    if (dropped > half || (dropped === half && (!exact || (quotient & 1n) === 1n))) quotient += 1n;
    exact = false;
    shift -= drop;
  }
  const magnitude = Number(quotient) * 2 ** -Math.min(shift, 1022) * 2 ** -Math.max(0, shift - 1022);
  return negative ? -magnitude : magnitude;
}

function bitLength(value: bigint): number {
  return value === 0n ? 0 : value.toString(2).length;
}
