// bench:throughput's floor: a server that answers agentctx's run protocol with the events of a counted turn (user
// message, tool call, tool response, answer), each written on its own as a real turn writes them, and does nothing
// else: no runner, no database. What it reaches is what this machine's HTTP and clients allow any server.
import http from 'node:http';

const pause = () => new Promise((resolve) => setImmediate(resolve));
const event = (id, author, content) => JSON.stringify({ id, invocationId: 'e-floor', author, timestamp: Date.now() / 1000, content, actions: { stateDelta: {}, artifactDelta: {} } });

const server = http.createServer(async (request, response) => {
  let body = '';
  for await (const chunk of request) body += chunk;
  const message = JSON.parse(body || '{}').message ?? '';
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const turn = crypto.randomUUID();
  const events = [
    event(`${turn}-1`, 'user', { role: 'user', parts: [{ text: String(message) }] }),
    event(`${turn}-2`, 'scale', { role: 'model', parts: [{ functionCall: { id: 'call-1', name: 'count_turn', args: { turn: 'this turn' } } }] }),
    event(`${turn}-3`, 'scale', { role: 'user', parts: [{ functionResponse: { id: 'call-1', name: 'count_turn', response: { counted: 'this turn', userTurns: 1 } } }] }),
    event(`${turn}-4`, 'scale', { role: 'model', parts: [{ text: 'counted' }] }),
  ];
  for (const each of events) {
    response.write(`event: event\ndata: ${each}\n\n`);
    await pause();
  }
  response.end(`event: done\ndata: {"events":${events.length}}\n\n`);
});
server.listen(0, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
