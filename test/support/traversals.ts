// Names and ids that walk, or try to walk, out of one user's or session's place in a store into another's: every
// depth of `..` up to past any store's root, `..` and separators percent-encoded (once and twice), backslashes, doubled
// and dotted separators, `user:`-scoped walks, and absolute paths (the store's own layout on disk included).

/** Where the walks aim: another user's `user:` artifact and session artifact, from the app's folder or the root. */
function targets(user: string, session: string, filename: string, userFilename: string): string[] {
  const encoded = encodeURIComponent(userFilename);
  return [
    `${user}/user/${userFilename}`,
    `${user}/user/${encoded}`,
    `${user}/sessions/${session}/${filename}`,
    `vault/${user}/user/${userFilename}`,
    `vault/${user}/user/${encoded}`,
    `vault/${user}/sessions/${session}/${filename}`,
  ];
}

const UPS = ['%2e%2e', '%2E%2E', '.%2e', '%2e.', '%252e%252e', '...', '. .'];
const SEPARATORS = ['\\', '%2f', '%2F', '%5c', '%252f', '//', '/./'];

/** Filenames that walk from a session of another user to `user`'s artifacts (names as in `targets`). */
export function traversalNames(
  root: string | undefined,
  aim: { user: string; session: string; filename: string; userFilename: string },
): string[] {
  const goals = targets(aim.user, aim.session, aim.filename, aim.userFilename);
  const names = new Set<string>();
  // Plain walks, deep enough to reach the app's folder, the root, and past it.
  for (let depth = 1; depth <= 7; depth++) {
    for (const goal of goals) {
      names.add(`${'../'.repeat(depth)}${goal}`);
      names.add(`user:${'../'.repeat(depth)}${goal}`);
      names.add(`${'..\\'.repeat(depth)}${goal.replaceAll('/', '\\')}`);
    }
  }
  // Encoded and odd spellings, at the depths that reach the app's folder and the root.
  for (const depth of [3, 4, 5]) {
    for (const up of UPS)
      for (const separator of ['/', ...SEPARATORS])
        for (const goal of goals.slice(0, 3))
          names.add(`${`${up}${separator}`.repeat(depth)}${goal.replaceAll('/', separator)}`);
    for (const separator of SEPARATORS)
      for (const goal of goals) names.add(`${`..${separator}`.repeat(depth)}${goal.replaceAll('/', separator)}`);
  }
  // Absolute paths: from the filesystem root, and the store's own layout when it has one.
  for (const goal of goals) {
    names.add(`/${goal}`);
    names.add(`\\${goal.replaceAll('/', '\\')}`);
    names.add(`C:\\${goal.replaceAll('/', '\\')}`);
    names.add(`file:///${goal}`);
    if (root !== undefined) {
      names.add(`${root}/${goal}`);
      names.add(
        `${root}/vault/${encodeURIComponent(aim.user)}/user/${encodeURIComponent(aim.userFilename).replace(/\./g, '%2E')}`,
      );
      names.add(
        `${root}/vault/${encodeURIComponent(aim.user)}/sessions/${aim.session}/${aim.filename.replace(/\./g, '%2E')}`,
      );
    }
  }
  return [...names];
}

/** User and session ids that, used as path segments, would lead to `user`'s folders. */
export function traversalIds(user: string, session: string): { userIds: string[]; sessionIds: string[] } {
  const walks = ['..', '../..', '../../..', '..\\..', '%2e%2e', '%2e%2e%2f%2e%2e', '..%2f..'];
  return {
    userIds: [
      `x/../${user}`,
      `../${user}`,
      `../vault/${user}`,
      `..\\${user}`,
      `x%2f..%2f${user}`,
      `%2e%2e/${user}`,
      `./${user}`,
      `${user}/.`,
      `${user}/`,
      `${user}/x/..`,
      ...walks,
    ],
    sessionIds: [
      ...walks,
      `../../${user}/sessions/${session}`,
      `../../../vault/${user}/sessions/${session}`,
      `..%2f..%2f${user}%2fsessions%2f${session}`,
      `x/../../../${user}/sessions/${session}`,
      `../../${user}/user`,
      `..\\..\\${user}\\sessions\\${session}`,
    ],
  };
}
