// The conversation of `npm run bench:compaction`: a support assistant with four tools, and 200 tickets. Every turn
// the user asks about one ticket, the assistant calls one or two tools (in parallel, or one after the other), then
// answers from what they returned. Everything is derived from the turn number, so every run is the same.
import { functionTool, llmAgent, type AgentDefinition } from 'agentctx';
import type { ScriptedCall } from 'agentctx/unstable';
import { z } from 'zod';

export const AGENT_NAME = 'support_agent';

/** What one turn sends and the model answers: the user message, the calls of each step in order, the final text. */
export type TurnPlan = { turn: number; message: string; steps: ScriptedCall[][]; answer: string };

// A small deterministic generator (LCG), seeded per value so tool results depend only on their arguments.
function random(seed: number): () => number {
  let state = (seed * 2_654_435_761) >>> 0;
  return () => (state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0) / 2 ** 32;
}
const pick = <T>(next: () => number, items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
const between = (next: () => number, low: number, high: number): number => low + Math.floor(next() * (high - low + 1));
const pad = (value: number, width = 4): string => String(value).padStart(width, '0');

const FIRST = ['Ada', 'Bruno', 'Chiara', 'Dmitri', 'Elena', 'Farid', 'Grace', 'Hiro', 'Ines', 'Jonas', 'Kemi', 'Lars'];
const LAST = [
  'Novak',
  'Okafor',
  'Lindqvist',
  'Moreau',
  'Tanaka',
  'Ferreira',
  'Haddad',
  'Kowalski',
  'Nguyen',
  'Schmidt',
];
const PRODUCTS = [
  'trail running shoes',
  'merino base layer',
  'ultralight tent (2p)',
  'insulated bottle 750 ml',
  'headlamp 400 lm',
  'down jacket',
  'hiking poles (pair)',
  'rain shell',
  'camping stove',
  'dry bag 20 l',
];
const CARRIERS = ['DHL', 'UPS', 'PostNL', 'GLS', 'DPD'];
const STATUSES = ['in transit', 'delayed at hub', 'out for delivery', 'awaiting pickup', 'returned to sender'];
const WAREHOUSES = ['Rotterdam', 'Leipzig', 'Lyon', 'Poznań', 'Milan'];
const TOPICS = [
  'refunds for late deliveries',
  'exchanging worn shoes',
  'warranty on electronics',
  'price matching',
  'shipping to Switzerland',
  'returning opened food items',
  'vouchers instead of refunds',
  'split shipments',
];
const TIERS = ['standard', 'silver', 'gold', 'platinum'];
const NOTE_BITS = [
  'Customer called twice about this.',
  'Prefers e-mail over phone.',
  'Previous parcel arrived damaged; a replacement was sent.',
  'Asked for invoices in German.',
  'Flagged by fraud check in 2023, cleared.',
  'Long-time customer, high lifetime value.',
];

const seedOf = (text: string): number =>
  [...text].reduce((hash, char) => (Math.imul(hash, 31) + char.charCodeAt(0)) >>> 0, 7);

export function orderData(orderId: string) {
  const next = random(seedOf(orderId));
  const items = Array.from({ length: between(next, 1, 4) }, () => ({
    sku: `SKU-${between(next, 1000, 9999)}`,
    name: pick(next, PRODUCTS),
    qty: between(next, 1, 3),
    price: Number((between(next, 900, 24_900) / 100).toFixed(2)),
  }));
  const carrier = pick(next, CARRIERS);
  const notes = Array.from({ length: between(next, 0, 2) }, () => pick(next, NOTE_BITS)).join(' ');
  return {
    orderId,
    status: pick(next, STATUSES),
    placed: `2025-0${between(next, 1, 9)}-${pad(between(next, 1, 28), 2)}`,
    items,
    shipping: {
      carrier,
      tracking: `${carrier.slice(0, 2).toUpperCase()}${between(next, 100_000_000, 999_999_999)}`,
      eta: `2025-1${between(next, 0, 2)}-${pad(between(next, 1, 28), 2)}`,
    },
    ...(notes === '' ? {} : { notes }),
  };
}

export function customerData(customerId: string) {
  const next = random(seedOf(customerId));
  return {
    customerId,
    name: `${pick(next, FIRST)} ${pick(next, LAST)}`,
    tier: pick(next, TIERS),
    since: 2012 + between(next, 0, 12),
    openTickets: between(next, 0, 4),
    lifetimeValueEur: between(next, 80, 9_000),
    lastContact: `2025-0${between(next, 1, 9)}-${pad(between(next, 1, 28), 2)} by ${pick(next, ['phone', 'e-mail', 'chat'])}`,
    notes: Array.from({ length: between(next, 1, 3) }, () => pick(next, NOTE_BITS)).join(' '),
  };
}

export function knowledgeData(query: string) {
  const next = random(seedOf(query));
  const hits = Array.from({ length: between(next, 2, 4) }, () => {
    const topic = pick(next, TOPICS);
    const days = between(next, 14, 60);
    return {
      id: `KB-${between(next, 100, 999)}`,
      title: `Policy: ${topic}`,
      snippet: `For ${topic}, agents may act within ${days} days of delivery. Escalate to a team lead above ${between(next, 50, 500)} EUR; document the decision in the ticket and quote the policy id to the customer.`,
    };
  });
  return { query, hits };
}

export function inventoryData(sku: string) {
  const next = random(seedOf(sku));
  const warehouses = Array.from({ length: between(next, 2, 4) }, () => ({
    warehouse: pick(next, WAREHOUSES),
    onHand: between(next, 0, 140),
    reserved: between(next, 0, 20),
    nextRestock: `2025-1${between(next, 0, 2)}-${pad(between(next, 1, 28), 2)}`,
  }));
  return { sku, warehouses };
}

export function buildAgent(): AgentDefinition {
  const tools = [
    functionTool({
      name: 'lookup_order',
      description: 'Looks an order up: status, items, shipping and notes.',
      parameters: z.object({ orderId: z.string() }),
      execute: ({ orderId }) => orderData(orderId),
    }),
    functionTool({
      name: 'get_customer',
      description: 'Reads a customer record: tier, history and notes.',
      parameters: z.object({ customerId: z.string() }),
      execute: ({ customerId }) => customerData(customerId),
    }),
    functionTool({
      name: 'search_kb',
      description: 'Searches the support knowledge base for policies.',
      parameters: z.object({ query: z.string() }),
      execute: ({ query }) => knowledgeData(query),
    }),
    functionTool({
      name: 'check_inventory',
      description: 'Stock of one SKU per warehouse, with the next restock date.',
      parameters: z.object({ sku: z.string() }),
      execute: ({ sku }) => inventoryData(sku),
    }),
  ];
  return llmAgent({
    name: AGENT_NAME,
    description: 'Answers support tickets for an outdoor-gear web shop.',
    instruction: [
      'You are the support assistant of an outdoor-gear web shop. The user is a support agent working through tickets.',
      'Before answering, look the facts up with your tools: orders, customers, stock and policies. Quote order numbers,',
      'tracking numbers and policy ids exactly, never invent them, and say what you would do next. Keep answers short.',
    ].join('\n'),
    tools,
  });
}

/** Turn `turn` (1-based): the user's message, the calls of each step, and the answer written from the results. */
export function turnPlan(turn: number): TurnPlan {
  const next = random(turn * 7919);
  const ticket = `T-${pad(turn)}`;
  const orderId = `A-1${pad(turn)}`;
  const customerId = `C-${pad(between(next, 1, 60))}`;
  const id = (step: number, index: number) => `call-${turn}-${step}-${index}`;
  const kind = pick(next, ['parallel', 'parallel', 'single', 'sequential', 'sequential'] as const);
  if (kind === 'single') {
    const topic = pick(next, TOPICS);
    const hits = knowledgeData(topic).hits;
    return {
      turn,
      message: `Ticket ${ticket}: a customer asks about ${topic}. What exactly does our policy say, and which policy id should I quote?`,
      steps: [[{ id: id(0, 0), name: 'search_kb', args: { query: topic } }]],
      answer: `For ${ticket}: ${hits.map((hit) => `${hit.id} (${hit.title.replace('Policy: ', '')})`).join(', ')}. Quote ${hits[0]?.id}: ${hits[0]?.snippet}`,
    };
  }
  const order = orderData(orderId);
  if (kind === 'parallel') {
    const customer = customerData(customerId);
    return {
      turn,
      message: `Ticket ${ticket}: customer ${customerId} says order ${orderId} is late and wants a refund if it does not arrive this week. What do we know?`,
      steps: [
        [
          { id: id(0, 0), name: 'lookup_order', args: { orderId } },
          { id: id(0, 1), name: 'get_customer', args: { customerId } },
        ],
      ],
      answer: `${ticket}: order ${orderId} is ${order.status} with ${order.shipping.carrier} (${order.shipping.tracking}), ETA ${order.shipping.eta}. ${customer.name} is a ${customer.tier} customer since ${customer.since} with ${customer.openTickets} open tickets. I would ${customer.tier === 'gold' || customer.tier === 'platinum' ? 'offer a voucher now and' : ''} wait for the ETA before refunding; if it slips, refund per policy.`,
    };
  }
  const sku = order.items[0]?.sku ?? 'SKU-0000';
  const stock = inventoryData(sku);
  const available = stock.warehouses.filter((entry) => entry.onHand > entry.reserved);
  return {
    turn,
    message: `Ticket ${ticket}: the first item of order ${orderId} arrived broken. Can we reship it today, and from which warehouse?`,
    steps: [
      [{ id: id(0, 0), name: 'lookup_order', args: { orderId } }],
      [{ id: id(1, 0), name: 'check_inventory', args: { sku } }],
    ],
    answer:
      available.length === 0
        ? `${ticket}: ${order.items[0]?.name} (${sku}) from ${orderId} is out of stock everywhere; next restock ${stock.warehouses[0]?.nextRestock}. Offer a refund or a wait.`
        : `${ticket}: ${order.items[0]?.name} (${sku}) from ${orderId} can ship today from ${available[0]?.warehouse} (${(available[0]?.onHand ?? 0) - (available[0]?.reserved ?? 0)} free). I will create the reshipment and send the customer the new tracking number.`,
  };
}
