import { describe, expect, it } from 'vitest';
import { assembleRequest, createRunner, llmAgent, ValidationError } from '../../index.js';
import { createScriptedModel } from '../../models/scripted/scripted-model.js';
import { adkProfile, agentctxProfile, deriveProfile, resolveProfile } from './profiles.js';

describe('profiles', () => {
  it('resolves the two names and checks a profile of your own', () => {
    expect(resolveProfile(undefined)).toBe(agentctxProfile);
    expect(resolveProfile('adk')).toBe(adkProfile);
    expect(() => resolveProfile('python' as 'adk')).toThrow(
      /Invalid profile: expected 'agentctx' or 'adk', got "python"/,
    );
    expect(() => resolveProfile({ ...agentctxProfile, summaries: 'mixed' as 'exact' })).toThrow(ValidationError);
    expect(deriveProfile('agentctx', { valueFormat: 'python' })).toEqual({
      ...agentctxProfile,
      name: 'agentctx+',
      valueFormat: 'python',
    });
  });

  it('is chosen once where an assembly starts, and every step follows it: values written as Python writes them', async () => {
    const agent = llmAgent({ name: 'helper', instruction: 'Flags: {flags}. Ratio: {ratio}.' });
    const state = { flags: { beta: true, old: null }, ratio: 0.5 };
    expect((await assembleRequest({ agents: agent, state })).request.system).toMatch(
      /^Flags: \{"beta":true,"old":null\}\. Ratio: 0\.5\./,
    );
    expect((await assembleRequest({ agents: agent, state, profile: 'adk' })).request.system).toMatch(
      /^Flags: \{'beta': True, 'old': None\}\. Ratio: 0\.5\./,
    );
  });

  it('carries a runner’s profile to every request it assembles', async () => {
    const model = createScriptedModel([{ text: 'ok' }]);
    const runner = createRunner({
      agents: llmAgent({ name: 'helper', instruction: 'On: {on}.' }),
      model,
      profile: 'adk',
    });
    await runner.createSession({ userId: 'u1', sessionId: 's1', state: { on: false } });
    for await (const _event of runner.run({ userId: 'u1', sessionId: 's1', message: 'hi' }));
    expect(runner.profile.name).toBe('adk');
    expect(model.requests[0]?.system).toMatch(/^On: False\./);
  });
});
