import type { TokenCounter } from '../../contracts/tokens.js';

let loading: Promise<TokenCounter> | undefined;

/**
 * The local tokenizer (gpt-tokenizer, o200k_base), loaded on first use: loading takes about half a second, which
 * importing agentctx should not pay. Special-token text such as `<|endoftext|>` is counted as plain text, since
 * it arrives in user data, not as a control token.
 */
export function loadTokenCounter(): Promise<TokenCounter> {
  loading ??= import('gpt-tokenizer/encoding/o200k_base').then((module) => {
    const options = { disallowedSpecial: new Set<string>() };
    return { encoding: 'o200k_base', count: (text: string) => (text === '' ? 0 : module.countTokens(text, options)) };
  });
  return loading;
}
