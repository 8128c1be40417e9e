import type { Profile, ProfileName } from '../contracts/profile.js';
import { deriveProfile, PYTHON_VERSIONS, resolveProfile } from '../engine/profile/profiles.js';
import { type JsonReader, isPlainRecord, joinPath } from '../engine/util/json-reader.js';

/** A profile as a file names one: `profile: adk`, or `profile: { name: adk, python: '3.12' }`. */
export type ProfileSpec = { readonly name: ProfileName; readonly python?: NonNullable<Profile['python']> };

/** Reads a file's `profile` (a name, or `{ name, python }`); problems go to `reader` at `path`. */
export function readProfileSpec(reader: JsonReader, value: unknown, path: string): ProfileSpec | undefined {
  const named = isPlainRecord(value) ? value['name'] : value;
  if (isPlainRecord(value)) reader.keys(value, path, ['name', 'python']);
  if (named !== 'agentctx' && named !== 'adk')
    return reader.issue(
      isPlainRecord(value) ? joinPath(path, 'name') : path,
      `expected agentctx or adk (or { name, python }), got ${JSON.stringify(named)}`,
    );
  const python = isPlainRecord(value) ? value['python'] : undefined;
  if (python === undefined) return { name: named };
  // YAML reads `python: 3.10` as the number 3.1: the version is a string, so say how to write it.
  if (typeof python !== 'string' || !PYTHON_VERSIONS.includes(python))
    return reader.issue(
      joinPath(path, 'python'),
      `expected one of ${PYTHON_VERSIONS.map((version) => `'${version}'`).join(', ')} (a string: quote it in YAML), got ${JSON.stringify(python)}`,
    );
  return { name: named, python: python as ProfileSpec['python'] & string };
}

/** The profile a spec names: the named one, with its `python` where the spec gives one. */
export function profileOf(spec: ProfileSpec): Profile {
  return spec.python === undefined
    ? resolveProfile(spec.name)
    : deriveProfile(spec.name, { name: spec.name, python: spec.python });
}
