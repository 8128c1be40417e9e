import { ValidationError, type ValidationIssue } from '../../contracts/errors/validation-error.js';

/** Pool settings a store URL may carry, named as in the pool options. */
export type UrlPoolOptions = { max?: number; connectionTimeoutMillis?: number };

// Each setting with the least value it takes: a pool of 0 connections would wait forever; a wait of 0 is pg's "no limit".
const SETTINGS = { max: 1, connectionTimeoutMillis: 0 } as const;

/**
 * What a store URL's query says of the pool: `max` (connections kept at most) and `connectionTimeoutMillis` (how long
 * a request waits for a connection, and a new one may take to connect). pg reads the others itself
 * (`statement_timeout`, `application_name`, `sslmode`, …) but not these, which belong to its pool; so `agentctx serve
 * --store 'postgres://…?max=20&connectionTimeoutMillis=2000'` can size the pool without code.
 */
export function poolOptionsFromUrl(url: string | undefined): UrlPoolOptions {
  const start = url?.indexOf('?') ?? -1;
  if (url === undefined || start === -1) return {};
  const query = new URLSearchParams(url.slice(start + 1).split('#')[0]);
  const options: UrlPoolOptions = {};
  const issues: ValidationIssue[] = [];
  for (const [name, least] of Object.entries(SETTINGS) as [keyof UrlPoolOptions, number][]) {
    const text = query.get(name);
    if (text === null) continue;
    const value = /^\d{1,9}$/.test(text) ? Number(text) : Number.NaN;
    if (value >= least) options[name] = value;
    else issues.push({ path: name, message: `${JSON.stringify(text)} must be a whole number from ${least}` });
  }
  if (issues.length > 0) {
    throw new ValidationError({
      subject: 'PostgreSQL store URL',
      issues,
      hint: 'Write e.g. ?max=20&connectionTimeoutMillis=2000 (a pool size, and a wait in milliseconds).',
    });
  }
  return options;
}
