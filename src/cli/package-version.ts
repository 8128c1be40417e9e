import { readFileSync } from 'node:fs';

/** The version in package.json, as `--version` prints it and the inspector shows it. */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string })
    .version;
}
