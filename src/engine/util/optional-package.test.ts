import { describe, expect, it } from 'vitest';
import { AgentctxError } from '../../contracts/errors/agentctx-error.js';
import { missingPackageError, optionalPackage } from './optional-package.js';

const PG = { packages: ['pg'], purpose: 'A PostgreSQL store' } as const;

// What Node throws for `import('pg')` when pg is not installed.
function notFound(name: string, code = 'ERR_MODULE_NOT_FOUND'): Error {
  return Object.assign(
    new Error(
      `Cannot find package '${name}' imported from /app/node_modules/agentctx/dist/stores/postgres/pg-driver.js`,
    ),
    { code },
  );
}

describe('optionalPackage', () => {
  it('says in one line what to install when the package is missing', async () => {
    const load = optionalPackage(PG, () => Promise.reject(notFound('pg')));
    const error = await load().catch((caught: unknown) => caught);
    expect(AgentctxError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'missing_package',
      message: "A PostgreSQL store needs the package 'pg', which is not installed.",
      hint: 'Install it: npm install pg',
    });
  });

  it('names every package of the feature in the install line, and the one that is missing in the message', () => {
    const error = missingPackageError(
      { packages: ['hono', '@hono/node-server'], purpose: 'The web inspector' },
      notFound('@hono/node-server'),
    );
    expect(error?.message).toBe("The web inspector needs the package '@hono/node-server', which is not installed.");
    expect(error?.hint).toBe('Install it: npm install hono @hono/node-server');
  });

  it('passes other failures through: a missing dependency of the package, or an error as it loads', async () => {
    expect(missingPackageError(PG, notFound('pg-types'))).toBeUndefined();
    expect(missingPackageError(PG, new Error("Cannot find package 'pg'"))).toBeUndefined();
    const thrown = new SyntaxError('Unexpected token');
    await expect(optionalPackage(PG, () => Promise.reject(thrown))()).rejects.toBe(thrown);
  });

  it('recognises CommonJS resolution failures too', () => {
    expect(missingPackageError(PG, notFound('pg', 'MODULE_NOT_FOUND'))?.code).toBe('missing_package');
  });

  it('loads once, and looks again after a failure (the package may have been installed since)', async () => {
    let calls = 0;
    let installed = false;
    const load = optionalPackage(PG, async () => {
      calls += 1;
      if (!installed) throw notFound('pg');
      return { Pool: 'pool' };
    });
    await expect(load()).rejects.toMatchObject({ code: 'missing_package' });
    installed = true;
    const [first, second] = await Promise.all([load(), load()]);
    expect(first).toBe(second);
    await load();
    expect(calls).toBe(2);
  });
});
