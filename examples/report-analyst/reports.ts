// 164 structured quarterly reports, generated deterministically (same text on every machine and run).
// Each is a few KB: prose a model would have to read, and a Figures block whose numbers a correct answer combines.

export type Report = {
  id: string;
  company: string;
  region: string;
  quarter: string;
  revenue: number;
  costs: number;
  text: string;
};

export const REPORT_COUNT = 164;
export const QUESTION = 'What were the total revenue, total costs and overall margin of our 2025 regional reports?';

const REGIONS = ['APAC', 'EMEA', 'North America', 'Latin America'];
const COMPANIES = [
  'Northwind Trading',
  'Contoso Systems',
  'Fabrikam Industrial',
  'Tailspin Logistics',
  'Wingtip Retail',
  'Litware Labs',
  'Adventure Works',
  'Proseware',
];
const LINES = [
  'industrial sensors',
  'fleet telematics',
  'retail analytics',
  'cold-chain monitoring',
  'field-service software',
  'payment terminals',
];
const CHANNELS = ['direct sales', 'distributors', 'the online store', 'system integrators', 'OEM partners'];
const THEMES = [
  'pricing pressure from new entrants',
  'a delayed component shipment',
  'strong renewal rates',
  'a reorganised sales team',
  'currency swings',
  'a new flagship customer',
  'longer procurement cycles',
  'seasonal demand',
];

// mulberry32: a tiny seeded generator, so the reports never change (bench/memory-corpus.ts seeds its corpus with it).
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(next: () => number, items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;

export function reportId(index: number): string {
  return `rpt-${String(index + 1).padStart(3, '0')}`;
}

export function generateReports(count = REPORT_COUNT): Report[] {
  return Array.from({ length: count }, (_, index) => {
    const next = random(20250101 + index * 7919);
    const id = reportId(index);
    const region = REGIONS[index % REGIONS.length] as string;
    const quarter = `2025 Q${(Math.floor(index / REGIONS.length) % 4) + 1}`;
    const company = pick(next, COMPANIES);
    const line = pick(next, LINES);
    const revenue = Math.round((800 + next() * 4200) * 10) / 10;
    const costs = Math.round(revenue * (0.62 + next() * 0.3) * 10) / 10;
    const units = Math.round(revenue * (1.5 + next()));
    const headcount = 12 + Math.floor(next() * 60);
    const paragraph = (topic: string) =>
      `In ${quarter} the ${region} business of ${company} in ${line} saw ${pick(next, THEMES)} and ${pick(next, THEMES)}. ` +
      `Most orders came through ${pick(next, CHANNELS)}, with ${pick(next, CHANNELS)} growing fastest. ${topic} ` +
      `The team expects ${pick(next, THEMES)} to shape the next quarter, and will review staffing, inventory and pricing at the mid-quarter check-in. ` +
      `Customer feedback pointed to onboarding time and documentation as the areas to improve first.`;
    const text = [
      `Report ${id} · ${company} · Region ${region} · ${quarter} · Product line: ${line}`,
      'Prepared by the regional finance office. Figures in thousands of US dollars.',
      '',
      'Summary',
      paragraph('Management considers the quarter in line with plan.'),
      paragraph('Two large deals slipped into the following quarter.'),
      paragraph('Gross margin moved with the product mix.'),
      paragraph('Operating expenses stayed within budget.'),
      '',
      'Figures',
      `Revenue: ${revenue.toFixed(1)}`,
      `Costs: ${costs.toFixed(1)}`,
      `Units shipped: ${units}`,
      `Headcount: ${headcount}`,
      '',
      'Notes',
      paragraph('Receivables older than 90 days fell.'),
      paragraph('Capital expenditure was limited to test equipment.'),
    ].join('\n');
    return { id, company, region, quarter, revenue, costs, text };
  });
}

/** The answer a correct analysis gives, computed directly from the figures. */
export function expectedAnswer(reports: readonly Report[]): string {
  return formatAnswer(
    reports.length,
    reports.reduce((sum, report) => sum + report.revenue, 0),
    reports.reduce((sum, report) => sum + report.costs, 0),
  );
}

export function formatAnswer(count: number, revenue: number, costs: number): string {
  const margin = revenue === 0 ? 0 : ((revenue - costs) / revenue) * 100;
  return `Across ${count} reports: revenue ${revenue.toFixed(1)}k USD, costs ${costs.toFixed(1)}k USD, margin ${margin.toFixed(1)}%.`;
}
