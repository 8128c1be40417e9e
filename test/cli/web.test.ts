import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentctx, agentctxWith, expectOneLineError, startInspectorProcess } from '../support/cli.js';
import { createFixtureStore, type InspectorFixture } from '../web/fixtures.js';

let fixture: InspectorFixture;

beforeAll(async () => {
  fixture = await createFixtureStore();
}, 60_000);
afterAll(async () => fixture?.cleanup());

describe('agentctx web', () => {
  it('teaches with --help', async () => {
    const result = await agentctx('web', '--help');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: agentctx web /);
    expect(result.stdout).toContain('--app <name>');
    expect((await agentctx('--help')).stdout).toMatch(/\n {2}web +open the web inspector/);
  });

  it('refuses bad input with one line and exit 2', async () => {
    expectOneLineError(
      await agentctx('web', '--store', join(fixture.dir, 'missing.db')),
      2,
      /There is no store at .*missing\.db/,
    );
    expectOneLineError(await agentctx('web', '--store', 'memory'), 2, /--store memory starts empty/);
    expectOneLineError(
      await agentctx('web', '--store', fixture.path, '--port', 'x'),
      2,
      /--port must be a whole number/,
    );
    expectOneLineError(await agentctx('web', '--store', fixture.path, '--host', '0.0.0.0'), 2, /needs a token/);
    expectOneLineError(
      await agentctxWith({ AGENTCTX_TOKEN: '' }, 'web', '--store', fixture.path, '--token', ' '),
      2,
      /--token is empty/,
    );
    expectOneLineError(await agentctx('web', 'agent.yaml'), 2, /web takes no file/);
    expectOneLineError(await agentctx('web', '--nope'), 2, /Unknown option '--nope'/);
  });

  it('serves the store it is given on a free port, with the apps named, and stops on SIGTERM', async () => {
    const web = await startInspectorProcess(
      ['--store', fixture.path, '--port', '0', '--app', 'report_analyst', '--app', 'notes_app'],
      /^inspector on (http:\/\/127\.0\.0\.1:\d+\/) \(store sqlite, apps report_analyst, notes_app\)\n$/,
    );
    const url = web.url;
    try {
      const info = (await (await fetch(`${url}api/info`)).json()) as { apps: string[]; tokenRequired: boolean };
      expect(info).toMatchObject({ apps: ['report_analyst', 'notes_app'], tokenRequired: false });
      const sessions = (await (await fetch(`${url}api/apps/report_analyst/sessions`)).json()) as {
        sessions: { id: string }[];
      };
      expect(sessions.sessions.map((session) => session.id)).toEqual(['report-analyst-paged']);
      const page = await fetch(url);
      expect(await page.text()).toContain('<script type="module" src="/assets/app.js"></script>');
      expect(await web.stop()).toBe(0);
    } finally {
      web.kill();
    }
  });
});
