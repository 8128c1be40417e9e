import { AgentctxError } from '../../contracts/errors/agentctx-error.js';

/**
 * What an optional package is for, so a missing one is reported as what to install: `packages` is what
 * `npm install` needs (the one imported first), `purpose` the feature that needs them ("A PostgreSQL store").
 */
export type OptionalPackage = {
  packages: readonly [string, ...string[]];
  purpose: string;
};

/**
 * Loads an optional peer dependency (a provider's SDK, a database driver, the MCP SDK, Hono, tsx) the first time a
 * feature needs it. `npm install agentctx` brings none of them; one that is missing fails with one line saying what
 * to install. `load` is the caller's own dynamic import of a literal name, so bundlers and the architecture test see
 * which file imports which package. A missing package is looked for again on the next call (it may have been
 * installed since); a loaded one is the module Node caches.
 */
export function optionalPackage<T>(needs: OptionalPackage, load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () =>
    (loaded ??= load().catch((error: unknown) => {
      loaded = undefined;
      throw missingPackageError(needs, error) ?? error;
    }));
}

/** The error for a package that is not installed, or undefined when `error` is something else (a broken install). */
export function missingPackageError(needs: OptionalPackage, error: unknown): AgentctxError | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return undefined;
  const message = error instanceof Error ? error.message : String(error);
  // Node names the package it could not find; a dependency of the package missing is a different fault.
  const missing = needs.packages.find(
    (name) =>
      message.includes(`'${name}'`) || message.includes(`"${name}"`) || message.includes(`/node_modules/${name}/`),
  );
  if (missing === undefined) return undefined;
  const install = `npm install ${needs.packages.join(' ')}`;
  return new AgentctxError({
    code: 'missing_package',
    message: `${needs.purpose} needs the package '${missing}', which is not installed.`,
    hint: `Install it: ${install}`,
    cause: error,
  });
}
