// A lockfile for a new project that depends on the packed agentctx (and a few packages of the user's own), made from
// the repository's lockfile: every package the project needs is an entry there already, at the version the
// repository was tested with and with its integrity, so `npm ci --offline` installs it from npm's cache — no registry.

type LockEntry = {
  version?: string;
  integrity?: string;
  resolved?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  bin?: Record<string, string>;
  engines?: Record<string, string>;
  license?: string;
  optional?: boolean;
  dev?: boolean;
  devOptional?: boolean;
  peer?: boolean;
  hasInstallScript?: boolean;
  os?: string[];
  cpu?: string[];
};

export type Lockfile = {
  name?: string;
  lockfileVersion: number;
  requires?: boolean;
  packages: Record<string, LockEntry>;
};

/** Where `name` resolves from the package at `from` ('' for the root): the nearest node_modules that holds it. */
function resolveFrom(packages: Record<string, LockEntry>, from: string, name: string): string | undefined {
  for (let base = from; ; ) {
    const candidate = `${base === '' ? '' : `${base}/`}node_modules/${name}`;
    if (packages[candidate] !== undefined) return candidate;
    if (base === '') return undefined;
    const cut = base.lastIndexOf('/node_modules/');
    base = cut < 0 ? '' : base.slice(0, cut);
  }
}

/**
 * The entries of everything `roots` need (their dependencies, and optional dependencies that are in the lock),
 * transitively, at the paths they have in `lock`: the repository's hoisting is a valid tree for a subset of it too.
 */
export function closureOf(lock: Lockfile, roots: Record<string, string>): Record<string, LockEntry> {
  const kept: Record<string, LockEntry> = {};
  const visit = (path: string) => {
    if (kept[path] !== undefined) return;
    const entry = lock.packages[path];
    if (entry === undefined) throw new Error(`${path} is not in the repository's lockfile`);
    const { dev, devOptional, peer, ...rest } = entry;
    kept[path] = rest;
    for (const name of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies })) {
      const found = resolveFrom(lock.packages, path, name);
      if (found !== undefined) visit(found);
      else if (entry.dependencies?.[name] !== undefined)
        throw new Error(`${path} needs ${name}, which the repository's lockfile does not hold`);
    }
  };
  for (const name of Object.keys(roots)) {
    const found = resolveFrom(lock.packages, '', name);
    if (found === undefined) throw new Error(`${name} is not in the repository's lockfile`);
    visit(found);
  }
  return kept;
}

/**
 * The project's lockfile: its root, agentctx from the tarball (`file:`, with the tarball's integrity), agentctx's own
 * dependencies and the project's other dependencies as the repository resolved them.
 */
export function projectLockfile(options: {
  lock: Lockfile;
  name: string;
  agentctx: {
    manifest: {
      version: string;
      dependencies: Record<string, string>;
      peerDependencies?: Record<string, string>;
      peerDependenciesMeta?: Record<string, { optional?: boolean }>;
      bin?: Record<string, string>;
      engines?: Record<string, string>;
      license?: string;
    };
    tarball: string;
    integrity: string;
  };
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}): Lockfile {
  const { lock, agentctx } = options;
  const { manifest } = agentctx;
  const own = closureOf(lock, manifest.dependencies);
  const users = closureOf(lock, options.dependencies);
  const dev = closureOf(lock, options.devDependencies);
  const devOnly = Object.fromEntries(
    Object.entries(dev)
      .filter(([path]) => own[path] === undefined && users[path] === undefined)
      .map(([path, entry]) => [path, { ...entry, dev: true }]),
  );
  return {
    name: options.name,
    lockfileVersion: 3,
    requires: true,
    packages: {
      '': {
        dependencies: { agentctx: `file:${agentctx.tarball}`, ...options.dependencies },
        devDependencies: options.devDependencies,
      } as LockEntry,
      'node_modules/agentctx': {
        version: manifest.version,
        resolved: `file:${agentctx.tarball}`,
        integrity: agentctx.integrity,
        ...(manifest.license === undefined ? {} : { license: manifest.license }),
        dependencies: manifest.dependencies,
        ...(manifest.peerDependencies === undefined ? {} : { peerDependencies: manifest.peerDependencies }),
        ...(manifest.peerDependenciesMeta === undefined ? {} : { peerDependenciesMeta: manifest.peerDependenciesMeta }),
        ...(manifest.bin === undefined ? {} : { bin: manifest.bin }),
        ...(manifest.engines === undefined ? {} : { engines: manifest.engines }),
      },
      ...own,
      ...users,
      ...devOnly,
    },
  };
}
