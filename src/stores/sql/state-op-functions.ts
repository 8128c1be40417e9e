// The SQL function `agentctx_state_op(current json, op text, argument json) → json` on PostgreSQL: the semantics of
// `applyStateOp` (src/engine/state/apply-state-op.ts) in PL/pgSQL, which test/stores/state-op-agreement.test.ts
// checks against it on random values. SQLite runs the JavaScript function itself (better-sqlite3-driver.ts).
//
// Values stay `json`, never `jsonb`, which would reorder object keys: lists and objects are rebuilt from their
// members' own text, in their order. The members are cut out of the text by a regular expression, not by json_each
// or `->`: those decode every string of a value that holds an object, and fail on the `\u0000` and lone surrogates
// JSON text (and agentctx) allows. Keys are compared as the JSON text JavaScript writes of them. Items of a set are
// compared as jsonb (key order and `1` / `1.0` aside), after an injective rewrite of those escapes that jsonb refuses.
// Numbers add as float8, printed shortest (`extra_float_digits = 1`), so 0.1 + 0.2 gives 0.30000000000000004 as in
// JavaScript. A current value of another type raises SQLSTATE `AC001`, the problem in the message and the type found
// (`json_typeof`) as its detail; the store turns it into JavaScript's error. Whitespace between tokens is not kept.
// No `?` may appear outside quotes below: the driver would take it for a placeholder.

/** The SQLSTATE `agentctx_state_op` raises when an operation cannot apply to the current value. */
export const STATE_OP_SQLSTATE = 'AC001';

/** A PostgreSQL escape-string literal of `text`, so backslashes mean the same whatever `standard_conforming_strings` says. */
const literal = (text: string): string => `E'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;

const WS = literal(' \t\n\r');
// A JSON token: a string (escapes kept), one of the six punctuation characters, or a number, true, false or null.
const TOKEN = literal('("(?:[^"\\\\]|\\\\.)*"|[][{},:]|[^][{},:"[:space:]]+)');
// The text as escape sequences and the runs between them.
const ESCAPES = literal('(\\\\(?:u[0-9a-fA-F]{4}|.)|[^\\\\]+)');
const KEY = literal('^("(?:[^"\\\\]|\\\\.)*")');
const EMPTY_LIST = literal('^\\[[[:space:]]*\\]$');

const failure = (problem: string, found: string) =>
  `RAISE EXCEPTION USING ERRCODE = '${STATE_OP_SQLSTATE}', MESSAGE = 'agentctx_state_op: ${problem}', DETAIL = ${found};`;

/** The members of a JSON object (`"key":value`) or list, in order, as their text without whitespace between tokens. */
const MEMBERS = `CREATE OR REPLACE FUNCTION agentctx_json_members(doc text) RETURNS TABLE (place bigint, member text)
LANGUAGE sql IMMUTABLE STRICT
AS $$
  WITH tokens AS (
    SELECT t.token[1] AS token, t.n FROM regexp_matches(doc, ${TOKEN}, 'g') WITH ORDINALITY AS t(token, n)
  ), levels AS (
    SELECT token, n, sum(CASE WHEN token IN ('{', '[') THEN 1 WHEN token IN ('}', ']') THEN -1 ELSE 0 END) OVER (ORDER BY n) AS after FROM tokens
  ), placed AS (
    SELECT token, n, after, after - CASE WHEN token IN ('{', '[') THEN 1 WHEN token IN ('}', ']') THEN -1 ELSE 0 END AS before FROM levels
  ), members AS (
    SELECT token, n, before, count(*) FILTER (WHERE token = ',' AND before = 1) OVER (ORDER BY n) AS place
      FROM placed WHERE before >= 1 AND after >= 1
  )
  SELECT place + 1, string_agg(token, '' ORDER BY n) FROM members
   WHERE NOT (token = ',' AND before = 1) GROUP BY place ORDER BY place
$$`;

/**
 * The text with the escapes jsonb refuses rewritten injectively into ones it takes: a backslash becomes two, NUL a
 * backslash and 0, a surrogate a backslash and its hex. Equal values stay equal and different ones different.
 */
const SAFE = `CREATE OR REPLACE FUNCTION agentctx_json_safe(doc text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT
AS $$
  SELECT CASE WHEN strpos(doc, ${literal('\\')}) = 0 THEN doc ELSE (
    SELECT string_agg(CASE
        WHEN lower(piece) IN (${literal('\\\\')}, ${literal('\\u005c')}) THEN ${literal('\\\\\\\\')}
        WHEN piece = ${literal('\\u0000')} THEN ${literal('\\\\0')}
        WHEN lower(piece) ~ ${literal('^\\\\ud[89a-f]')} THEN ${literal('\\\\')} || lower(substr(piece, 3))
        ELSE piece END, '' ORDER BY t.n)
      FROM regexp_matches(doc, ${ESCAPES}, 'g') WITH ORDINALITY AS t(parts, n), LATERAL (SELECT t.parts[1] AS piece) AS p
  ) END
$$`;

const STATE_OP = `CREATE OR REPLACE FUNCTION agentctx_state_op(current_value json, op text, argument json) RETURNS json
LANGUAGE plpgsql IMMUTABLE
SET extra_float_digits = 1
AS $$
DECLARE
  kind text := json_typeof(current_value);
  total float8;
  field_json text;
  field_value text;
  members text;
  replaced boolean;
  seen jsonb[];
  item record;
  canonical jsonb;
  added text := '';
BEGIN
  IF op = 'add' THEN
    IF current_value IS NULL THEN
      RETURN ((btrim(argument::text, ${WS})::float8 + 0)::text)::json;
    END IF;
    IF kind <> 'number' THEN
      ${failure('wrong_type', 'kind')}
    END IF;
    BEGIN
      total := btrim(current_value::text, ${WS})::float8 + btrim(argument::text, ${WS})::float8;
    EXCEPTION WHEN numeric_value_out_of_range THEN
      ${failure('not_finite', `'number'`)}
    END;
    IF total = 'Infinity'::float8 OR total = '-Infinity'::float8 OR total = 'NaN'::float8 THEN
      ${failure('not_finite', `'number'`)}
    END IF;
    RETURN ((total + 0)::text)::json;
  END IF;

  IF op = 'append' THEN
    IF current_value IS NULL THEN
      RETURN argument;
    END IF;
    IF kind <> 'array' THEN
      ${failure('wrong_type', 'kind')}
    END IF;
    IF btrim(argument::text, ${WS}) ~ ${EMPTY_LIST} THEN
      RETURN current_value;
    END IF;
    IF btrim(current_value::text, ${WS}) ~ ${EMPTY_LIST} THEN
      RETURN argument;
    END IF;
    RETURN (left(rtrim(current_value::text, ${WS}), -1) || ',' || substr(ltrim(argument::text, ${WS}), 2))::json;
  END IF;

  IF op = 'setField' THEN
    SELECT m.member INTO field_json FROM agentctx_json_members(argument::text) AS m WHERE m.place = 1;
    SELECT m.member INTO field_value FROM agentctx_json_members(argument::text) AS m WHERE m.place = 2;
    IF current_value IS NULL THEN
      RETURN ('{' || field_json || ':' || field_value || '}')::json;
    END IF;
    IF kind <> 'object' THEN
      ${failure('wrong_type', 'kind')}
    END IF;
    SELECT string_agg(CASE WHEN k.key = field_json THEN field_json || ':' || field_value ELSE m.member END, ',' ORDER BY m.place),
           coalesce(bool_or(k.key = field_json), false)
      INTO members, replaced
      FROM agentctx_json_members(current_value::text) AS m, LATERAL (SELECT substring(m.member FROM ${KEY}) AS key) AS k;
    IF NOT replaced THEN
      members := coalesce(members || ',', '') || field_json || ':' || field_value;
    END IF;
    RETURN ('{' || members || '}')::json;
  END IF;

  IF op = 'addToSet' THEN
    IF current_value IS NOT NULL AND kind <> 'array' THEN
      ${failure('wrong_type', 'kind')}
    END IF;
    seen := ARRAY(SELECT jsonb_array_elements(agentctx_json_safe(coalesce(current_value::text, '[]'))::jsonb));
    FOR item IN SELECT m.member FROM agentctx_json_members(argument::text) AS m ORDER BY m.place LOOP
      canonical := agentctx_json_safe(item.member)::jsonb;
      CONTINUE WHEN canonical = ANY(seen);
      seen := seen || canonical;
      added := added || ',' || item.member;
    END LOOP;
    IF added = '' THEN
      RETURN coalesce(current_value, '[]'::json);
    END IF;
    IF current_value IS NULL OR btrim(current_value::text, ${WS}) ~ ${EMPTY_LIST} THEN
      RETURN ('[' || substr(added, 2) || ']')::json;
    END IF;
    RETURN (left(rtrim(current_value::text, ${WS}), -1) || added || ']')::json;
  END IF;

  RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = 'agentctx_state_op: unknown operation ' || op;
END
$$`;

/** The statements of the migration that creates the functions (PostgreSQL). */
export function stateOpFunctions(): string[] {
  return [MEMBERS, SAFE, STATE_OP];
}
