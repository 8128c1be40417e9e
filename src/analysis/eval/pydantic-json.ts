// JSON text as pydantic 2 writes it with `model_dump_json(indent=2)` (pydantic-core serializes through serde_json's
// pretty formatter): two-space indents, `": "`, `[]` and `{}` for empty containers, as `JSON.stringify(v, null, 2)`;
// but a field typed `float` is written in ryu's layout, so always with a fraction or an exponent (`1.0`, `0.00001`,
// `1e+16`, `1e-7`: checked against pydantic 2.13.4's `TypeAdapter(float).dump_json`), and a non-finite float as
// `null` (pydantic's default `ser_json_inf_nan`). Values of type `Any` (tool arguments) keep their JSON type: an
// integral number is an int, any other a float.

/** A value of a pydantic field typed `float`. */
export class PyFloat {
  constructor(readonly value: number) {}
}

/** A JSON tree whose floats are marked. */
export type PyJson = null | boolean | number | string | PyFloat | PyJson[] | { [key: string]: PyJson };

/** A float field's value, `null` for absent (pydantic writes `None` as `null`). */
export function pyFloat(value: number | undefined): PyFloat | null {
  return value === undefined ? null : new PyFloat(value);
}

/** The text of a tree, as `model_dump_json(indent=2)`. */
export function pydanticJson(value: PyJson, indent = ''): string {
  if (value === null) return 'null';
  if (value instanceof PyFloat) return Number.isFinite(value.value) ? ryuFloat(value.value) : 'null';
  if (typeof value === 'number')
    return Number.isInteger(value) || !Number.isFinite(value) ? JSON.stringify(value) : ryuFloat(value);
  if (typeof value !== 'object') return JSON.stringify(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => inner + pydanticJson(item, inner)).join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return '{}';
  const lines = entries.map(([key, item]) => `${inner}${JSON.stringify(key)}: ${pydanticJson(item, inner)}`);
  return `{\n${lines.join(',\n')}\n${indent}}`;
}

/**
 * A finite float as pydantic writes it: the shortest digits, in ryu's layout (fixed notation while the decimal point
 * falls from 4 zeros before the first digit to 16 digits after it), a positive exponent with its `+`.
 */
export function ryuFloat(value: number): string {
  const { sign, digits, point } = shortest(value);
  const length = digits.length;
  const k = point - length;
  let text: string;
  if (k >= 0 && point <= 16) text = `${digits}${'0'.repeat(k)}.0`;
  else if (point > 0 && point <= 16) text = `${digits.slice(0, point)}.${digits.slice(point)}`;
  else if (point > -5 && point <= 0) text = `0.${'0'.repeat(-point)}${digits}`;
  else {
    const exponent = point - 1;
    const mantissa = length === 1 ? digits : `${digits[0]}.${digits.slice(1)}`;
    text = `${mantissa}e${exponent > 0 ? '+' : ''}${exponent}`;
  }
  return sign + text;
}

/**
 * A float as Python's `repr` and `str` write it (what an f-string puts in ADK's result ids): fixed notation for
 * exponents from -4 to 15, always with a fraction (`1700000000.0`); otherwise `1e+16`, `1.5e-05`.
 */
export function pythonFloatRepr(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  const { sign, digits, point } = shortest(value);
  const exponent = point - 1;
  let text: string;
  if (exponent >= -4 && exponent < 16) {
    if (point >= digits.length) text = `${digits}${'0'.repeat(point - digits.length)}.0`;
    else if (point > 0) text = `${digits.slice(0, point)}.${digits.slice(point)}`;
    else text = `0.${'0'.repeat(-point)}${digits}`;
  } else {
    const mantissa = digits.length === 1 ? digits : `${digits[0]}.${digits.slice(1)}`;
    const magnitude = String(Math.abs(exponent)).padStart(2, '0');
    text = `${mantissa}e${exponent < 0 ? '-' : '+'}${magnitude}`;
  }
  return sign + text;
}

// The shortest digits that read back as the value (what `toExponential()` gives), and where the decimal point falls
// counted from the first digit.
function shortest(value: number): { sign: string; digits: string; point: number } {
  const sign = value < 0 || Object.is(value, -0) ? '-' : '';
  const [mantissa = '0', exponent = '0'] = Math.abs(value).toExponential().split('e');
  return { sign, digits: mantissa.replace('.', ''), point: Number(exponent) + 1 };
}
