import { describe, expect, it } from 'vitest';
import {
  BM25_B,
  BM25_K1,
  createToolIndex,
  documentWords,
  NAME_WEIGHT,
  parameterNames,
  searchWords,
  stem,
} from './bm25.js';

const object = (...names: string[]) => ({
  type: 'object',
  properties: Object.fromEntries(names.map((name) => [name, { type: 'string' }])),
});
const TOOLS = [
  { name: 'create_issue', description: 'Creates an issue.', parameters: object('title', 'body') },
  { name: 'list_issues', description: 'Lists issues of a repository.', parameters: object('state') },
  { name: 'send_message', description: 'Sends a message to a channel.', parameters: object('channel', 'text') },
];

describe('search words', () => {
  it('splits snake, kebab, dotted and camelCase names, drops stopwords and stems', () => {
    expect(searchWords('getPullRequest repo.list-files_v2 HTTPServer')).toEqual([
      'get',
      'pull',
      'request',
      'repo',
      'list',
      'fil',
      'v2',
      'http',
      'server',
    ]);
    expect(searchWords('Create an issue in the repository')).toEqual(['creat', 'issu', 'repository']);
  });

  it('stems plurals, -ing and -ed so a query meets a description', () => {
    expect(['create', 'creates', 'created', 'creating'].map(stem)).toEqual(['creat', 'creat', 'creat', 'creat']);
    expect(['repositories', 'issues', 'messages', 'status', 'address'].map(stem)).toEqual([
      'repository',
      'issu',
      'messag',
      'status',
      'address',
    ]);
    expect(['running', 'getting', 'added', 'pulled', 'need'].map(stem)).toEqual(['run', 'get', 'add', 'pull', 'need']);
  });

  it('reads parameter names, nested ones included', () => {
    const schema = {
      type: 'object',
      properties: {
        pullNumber: { type: 'integer' },
        review: { type: 'object', properties: { body: {} } },
        files: { type: 'array', items: { type: 'object', properties: { path: {} } } },
      },
    };
    expect(parameterNames(schema)).toEqual(['pullNumber', 'review', 'body', 'files', 'path']);
    expect(documentWords({ name: 'x_tool', description: 'Does x.', parameters: schema, toolset: 'github' })).toEqual({
      name: ['x', 'tool'],
      text: ['github', 'x', 'pull', 'number', 'review', 'body', 'fil', 'path'],
    });
  });
});

describe('BM25', () => {
  // N = 3 tools. Names: 2 words each (average 2); the rest: 4, 4 and 5 words (average 13/3).
  // Per field: idf(t) = ln(1 + (N − n + 0.5)/(n + 0.5)), term = tf·(k1+1) / (tf + k1·(1 − b + b·|d|/avgdl)).
  const idf = (n: number) => Math.log(1 + (3 - n + 0.5) / (n + 0.5));
  const term = (tf: number, length: number, average: number) =>
    (tf * (BM25_K1 + 1)) / (tf + BM25_K1 * (1 - BM25_B + (BM25_B * length) / average));
  const name = (n: number) => idf(n) * term(1, 2, 2);
  const text = (n: number, tf: number, length: number) => idf(n) * term(tf, length, 13 / 3);

  it('scores exactly by the formula, the name weighing NAME_WEIGHT, best first', () => {
    expect(NAME_WEIGHT).toBe(2);
    const index = createToolIndex(TOOLS);
    expect(index.size).toBe(3);
    const hits = index.search('create an issue', 5);
    expect(hits.map((hit) => hit.name)).toEqual(['create_issue', 'list_issues']);
    expect(hits[0]?.score).toBeCloseTo(2 * (name(1) + name(2)) + text(1, 1, 4) + text(2, 1, 4), 12);
    expect(hits[0]?.score).toBeCloseTo(4.399637621286166, 12);
    expect(hits[1]?.score).toBeCloseTo(2 * name(2) + text(2, 1, 4), 12);
    expect(hits[1]?.score).toBeCloseTo(1.425281763777682, 12);
    const message = index.search('post a message in a channel', 5);
    expect(message).toEqual([{ name: 'send_message', score: expect.closeTo(4.177118178505039, 12) as number }]);
    expect(message[0]?.score).toBeCloseTo(2 * name(1) + text(1, 1, 5) + text(1, 2, 5), 12);
  });

  it('prefers the tool whose name is all the query asks for over a longer name', () => {
    const index = createToolIndex([
      { name: 'jira_get_issue', description: 'Get a Jira issue.' },
      { name: 'jira_get_issue_dates', description: 'Get the dates of a Jira issue.' },
    ]);
    expect(index.search('get the Jira issue', 2).map((hit) => hit.name)).toEqual([
      'jira_get_issue',
      'jira_get_issue_dates',
    ]);
  });

  it('breaks ties by name, honours the limit, and finds nothing for unknown words', () => {
    const index = createToolIndex([...TOOLS].reverse());
    expect(index.search('issues', 5).map((hit) => hit.name)).toEqual(['create_issue', 'list_issues']);
    expect(index.search('issues', 1).map((hit) => hit.name)).toEqual(['create_issue']);
    expect(index.search('deploy the kubernetes cluster', 5)).toEqual([]);
    expect(index.search('the of a', 5)).toEqual([]);
    expect(createToolIndex([]).search('anything', 5)).toEqual([]);
  });

  it('counts a repeated query word once', () => {
    const index = createToolIndex(TOOLS);
    expect(index.search('issue issue issue', 5)).toEqual(index.search('issue', 5));
  });
});
