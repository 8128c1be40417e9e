/**
 * Whether an OpenAI model reasons before it answers: the o-series (`o1`, `o3`, `o4-mini`…) and the gpt-5 family
 * (`gpt-5`, `gpt-5.1`, `gpt-5.6-luna`, `gpt-5-codex`…), but not the chat-tuned `gpt-5…-chat…` models, which do not.
 * These are the models whose reasoning Chat Completions loses between a tool call and its follow-up; `openai:` model
 * strings send them through the Responses API.
 */
export function isOpenAIReasoningModel(modelId: string): boolean {
  const id = modelId.trim().toLowerCase();
  if (/^o\d/.test(id)) return true;
  return /^gpt-5(?![0-9])/.test(id) && !/^gpt-5[^/]*-chat/.test(id);
}
