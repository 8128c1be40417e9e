// bench:throughput's floors: servers that answer agentctx's run protocol with the events of a counted turn (user
// message, tool call, tool response, answer), each written on its own as a real turn writes them, and do nothing
// else: no runner, no model, no state. What they reach is what this machine allows any server.
//   node bench/throughput-floor-server.mjs               no database: the ceiling of HTTP and the clients
//   node bench/throughput-floor-server.mjs <postgres-url> durable: the session's head read first, as by a server that
//     does not hold the session, then each event committed to PostgreSQL before it is streamed, one statement each
//     (the event inserted at the revision its statement bumps): the least a server does that acknowledges only what
//     is stored, event by event.
import http from 'node:http';
import pg from 'pg';

const url = process.argv[2];
const pool = url === undefined ? undefined : new pg.Pool({ connectionString: url, max: 10 });
if (pool !== undefined) {
  await pool.query(
    `CREATE TABLE IF NOT EXISTS floor_sessions (session_id TEXT PRIMARY KEY, revision INTEGER NOT NULL)`,
  );
  await pool.query(
    `CREATE TABLE IF NOT EXISTS floor_events (session_id TEXT NOT NULL, seq INTEGER NOT NULL, event_json TEXT NOT NULL, PRIMARY KEY (session_id, seq))`,
  );
}
// Named, so each connection parses them once, as agentctx's driver does.
const HEAD = { name: 'floor-head', text: 'SELECT revision FROM floor_sessions WHERE session_id = $1' };
const APPEND = {
  name: 'floor-append',
  text: `WITH bumped AS (INSERT INTO floor_sessions VALUES ($1, 1) ON CONFLICT (session_id) DO UPDATE SET revision = floor_sessions.revision + 1 RETURNING revision)
    INSERT INTO floor_events SELECT $1, revision, $2 FROM bumped`,
};

const pause = () => new Promise((resolve) => setImmediate(resolve));
const event = (id, author, content) =>
  JSON.stringify({
    id,
    invocationId: 'e-floor',
    author,
    timestamp: Date.now() / 1000,
    content,
    actions: { stateDelta: {}, artifactDelta: {} },
  });

const server = http.createServer(async (request, response) => {
  let body = '';
  for await (const chunk of request) body += chunk;
  const message = JSON.parse(body || '{}').message ?? '';
  const session = request.url ?? '';
  try {
    await pool?.query({ ...HEAD, values: [session] });
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const turn = crypto.randomUUID();
    const events = [
      event(`${turn}-1`, 'user', { role: 'user', parts: [{ text: String(message) }] }),
      event(`${turn}-2`, 'scale', {
        role: 'model',
        parts: [{ functionCall: { id: 'call-1', name: 'count_turn', args: { turn: 'this turn' } } }],
      }),
      event(`${turn}-3`, 'scale', {
        role: 'user',
        parts: [
          { functionResponse: { id: 'call-1', name: 'count_turn', response: { counted: 'this turn', userTurns: 1 } } },
        ],
      }),
      event(`${turn}-4`, 'scale', { role: 'model', parts: [{ text: 'counted' }] }),
    ];
    for (const each of events) {
      if (pool === undefined) await pause();
      else await pool.query({ ...APPEND, values: [session, each] });
      response.write(`event: event\ndata: ${each}\n\n`);
    }
    response.end(`event: done\ndata: {"events":${events.length}}\n\n`);
  } catch (error) {
    if (!response.headersSent) response.writeHead(503, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ error: { message: String(error) } }));
  }
});
server.listen(0, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${server.address().port}`));
process.on('SIGTERM', () =>
  server.close(() => (pool === undefined ? process.exit(0) : pool.end().then(() => process.exit(0)))),
);
