import { ValidationError, type ValidationIssue } from '../../contracts/errors/validation-error.js';
import type { Profile, ProfileName } from '../../contracts/profile.js';
import { PYTHON_UNICODE } from '../python/python-printable.js';

/** The Pythons a profile may name (`python`), oldest first. */
export const PYTHON_VERSIONS: readonly string[] = Object.keys(PYTHON_UNICODE).sort();

/** agentctx's conventions: JavaScript value formatting, exact summaries, the request measured as it will be sent. */
export const agentctxProfile: Profile = Object.freeze({
  name: 'agentctx',
  valueFormat: 'default',
  templateEscapes: false,
  stateAlias: true,
  summaries: 'exact',
  summaryPrompt: 'agentctx',
  promptTokens: 'request',
  functionDeclarations: 'agentctx',
  generatedCallIdPrefix: 'adk-',
});

/** ADK Python's conventions, byte for byte: Python's `str()` for values, ADK's summaries, prompt and token estimate. */
export const adkProfile: Profile = Object.freeze({
  name: 'adk',
  valueFormat: 'python',
  templateEscapes: false,
  stateAlias: true,
  summaries: 'adk',
  summaryPrompt: 'adk',
  promptTokens: 'adk',
  functionDeclarations: 'adk',
  generatedCallIdPrefix: 'adk-',
});

const PROFILES: Readonly<Record<ProfileName, Profile>> = { agentctx: agentctxProfile, adk: adkProfile };

/** A profile by name, or one of your own (checked); `agentctx` when absent. */
export function resolveProfile(profile: ProfileName | Profile | undefined): Profile {
  if (profile === undefined) return agentctxProfile;
  if (typeof profile === 'string') {
    const named = PROFILES[profile];
    if (named === undefined)
      throw invalid([{ path: '', message: `expected 'agentctx' or 'adk', got ${JSON.stringify(profile)}` }]);
    return named;
  }
  const issues = checkProfile(profile);
  if (issues.length > 0) throw invalid(issues);
  return profile;
}

/** A profile derived from a named one: `deriveProfile('agentctx', { valueFormat: 'python' })`. */
export function deriveProfile(base: ProfileName, changes: Partial<Omit<Profile, 'name'>> & { name?: string }): Profile {
  return resolveProfile(Object.freeze({ ...resolveProfile(base), name: changes.name ?? `${base}+`, ...changes }));
}

function checkProfile(profile: Profile): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const value = profile as unknown as Record<string, unknown>;
  const oneOf = (key: string, allowed: readonly unknown[]) => {
    if (!allowed.includes(value[key]))
      issues.push({
        path: key,
        message: `expected ${allowed.map((item) => JSON.stringify(item)).join(' or ')}, got ${JSON.stringify(value[key])}`,
      });
  };
  if (typeof value['name'] !== 'string' || value['name'] === '')
    issues.push({ path: 'name', message: 'must be a non-empty string' });
  if (
    value['valueFormat'] !== 'default' &&
    value['valueFormat'] !== 'python' &&
    typeof value['valueFormat'] !== 'function'
  ) {
    issues.push({
      path: 'valueFormat',
      message: `expected 'default', 'python' or a function, got ${JSON.stringify(value['valueFormat'])}`,
    });
  }
  oneOf('templateEscapes', [true, false]);
  oneOf('stateAlias', [true, false]);
  oneOf('summaries', ['exact', 'adk']);
  oneOf('summaryPrompt', ['agentctx', 'adk']);
  oneOf('promptTokens', ['request', 'adk']);
  if (value['functionDeclarations'] !== undefined) oneOf('functionDeclarations', ['agentctx', 'adk']);
  if (value['python'] !== undefined) oneOf('python', PYTHON_VERSIONS);
  if (typeof value['generatedCallIdPrefix'] !== 'string' || value['generatedCallIdPrefix'] === '')
    issues.push({ path: 'generatedCallIdPrefix', message: 'must be a non-empty string' });
  return issues;
}

function invalid(issues: ValidationIssue[]): ValidationError {
  return new ValidationError({
    subject: 'profile',
    issues,
    hint: "Pass 'agentctx' or 'adk', or derive one with deriveProfile('agentctx', { … }).",
  });
}
