// The child of `inChild` (in-child.ts): receives one job over IPC, runs it, sends back what became of it, and waits
// to be killed. It leaves when its parent goes, so a parent that dies does not leave it spinning.

type Job = { source: string; args: unknown[] } | { module: string; exportName: string; args: unknown[] };

// A function's source comes from a test file that vitest transformed, which turns `import(x)` into this call.
(globalThis as { __vite_ssr_dynamic_import__?: unknown }).__vite_ssr_dynamic_import__ = (specifier: string) =>
  import(specifier);

process.on('disconnect', () => process.exit(0));

process.once('message', async (job: Job) => {
  try {
    const run =
      'source' in job
        ? ((0, eval)(`(${job.source})`) as (...args: unknown[]) => unknown)
        : await exported(job.module, job.exportName);
    const value = await run(...job.args);
    process.send!({ kind: 'returned', value });
  } catch (error) {
    const {
      name = 'Error',
      message = String(error),
      stack,
      code,
    } = (error ?? {}) as { name?: string; message?: string; stack?: string; code?: unknown };
    process.send!({ kind: 'threw', error: { name, message, stack, code } });
  }
});

async function exported(module: string, exportName: string): Promise<(...args: unknown[]) => unknown> {
  const value = ((await import(module)) as Record<string, unknown>)[exportName];
  if (typeof value !== 'function') throw new TypeError(`${module} exports no function named ${exportName}`);
  return value as (...args: unknown[]) => unknown;
}
