import type { Event } from '../../contracts/event.js';

/** One artifact version saved while an event was being made. */
export type SavedVersion = { filename: string; version: number };

// An event's `artifactDelta` names the last version of each name only; a tool that saves a name twice, or two
// parallel calls saving one name, save more. The runner notes them all here, by event, so that an event the store
// refuses takes every version saved for it along (Invocation#dropUnrecorded).
const saved = new WeakMap<Event, readonly SavedVersion[]>();

/** Notes the versions saved while `event` was made. */
export function noteSaved(event: Event, versions: readonly SavedVersion[]): void {
  if (versions.length > 0) saved.set(event, versions);
}

/** The versions saved for `event`: those noted, or else the ones its `artifactDelta` names. */
export function savedFor(event: Event): readonly SavedVersion[] {
  return (
    saved.get(event) ??
    Object.entries(event.actions.artifactDelta ?? {}).map(([filename, version]) => ({ filename, version }))
  );
}
