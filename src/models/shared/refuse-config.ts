import { ValidationError } from '../../contracts/errors/validation-error.js';
import type { BuiltInTool, RequestConfig } from '../../contracts/request.js';

/**
 * Refuses a call whose config names something the provider's API has no equivalent for, in one line naming the
 * field: sending the call without it would answer a question the caller did not ask. Nothing is sent.
 */
export function refuseConfig(api: string, field: string, why: string): never {
  return refuseRequest(api, `config.${field}`, why);
}

/** As `refuseConfig`, for any part of the request (`builtInTools[0]`). */
export function refuseRequest(api: string, path: string, why: string): never {
  throw new ValidationError({
    subject: `${api} request`,
    issues: [{ path, message: why }],
    hint: 'Leave it out for this model; docs/providers.md lists what each provider takes.',
  });
}

/** Refuses the first of `fields` the config sets: each has no equivalent in `api`. */
export function refuseFields(
  api: string,
  config: RequestConfig,
  fields: Readonly<Partial<Record<keyof RequestConfig, string>>>,
): void {
  for (const [field, why] of Object.entries(fields)) {
    if (config[field as keyof RequestConfig] !== undefined) refuseConfig(api, field, why as string);
  }
}

/** Refuses a built-in tool of another provider: it runs only where it was named. */
export function refuseForeignBuiltIns(
  api: string,
  provider: string,
  tools: readonly BuiltInTool[] | undefined,
  model?: string,
): void {
  for (const [index, tool] of (tools ?? []).entries()) {
    if (tool.provider !== provider)
      refuseRequest(
        api,
        `builtInTools[${index}]`,
        `'${tool.type}' is a built-in tool of ${tool.provider}, which ${api} cannot run${model === undefined ? '' : ` (model ${model})`}`,
      );
  }
}

/** The options given for one provider, to merge over its request as given. */
export function providerOptionsOf(config: RequestConfig, provider: string): Record<string, unknown> {
  return config.providerOptions?.[provider] ?? {};
}
