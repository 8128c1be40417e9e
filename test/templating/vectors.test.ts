import { describe, expect, it } from 'vitest';
import { AgentctxError } from '../../src/contracts/errors/agentctx-error.js';
import { pyTuple } from '../../src/engine/python/python-values.js';
import { recordTextReader } from '../../src/engine/session/artifact-rules.js';
import { injectState } from '../../src/features/templating/inject-state.js';
import { loadVectors } from '../support/adk-vectors.js';

const vectors = await loadVectors('inject_session_state');

// JSON cannot hold a tuple; the vector spells it as a marker string.
function fromVector(value: unknown): unknown {
  if (value === '<python tuple (1,)>') return pyTuple(1);
  return value;
}

describe('inject_session_state vectors (ADK Python)', () => {
  it('covers all 41 vectors', () => {
    expect(vectors).toHaveLength(41);
  });

  for (const vector of vectors) {
    it(vector.name, async () => {
      const input = vector.input as {
        template: string;
        state: Record<string, unknown>;
        artifacts?: Record<string, string> | null;
      };
      const state = Object.fromEntries(Object.entries(input.state).map(([key, value]) => [key, fromVector(value)]));
      const run = injectState(input.template, {
        state,
        artifacts: input.artifacts == null ? undefined : recordTextReader(input.artifacts),
        // The vectors come from ADK Python, whose values are rendered by str(): the python format.
        valueFormat: 'python',
      });
      const expected = vector.expected as string | { error: { type: string; message: string } };
      if (typeof expected === 'string') {
        await expect(run).resolves.toBe(expected);
      } else {
        const error = await run.then(
          () => undefined,
          (caught: unknown) => caught,
        );
        expect(AgentctxError.isInstance(error)).toBe(true);
        expect((error as Error).message).toBe(expected.error.message);
      }
    });
  }
});
