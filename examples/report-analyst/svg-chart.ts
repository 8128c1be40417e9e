// A small line chart as SVG text: prompt tokens per call for each series, with axes, ticks and a legend.

export type Series = { name: string; color: string; values: readonly number[] };

export function lineChartSvg(options: {
  title: string;
  xLabel: string;
  yLabel: string;
  series: readonly Series[];
}): string {
  const width = 860;
  const height = 460;
  const margin = { top: 48, right: 24, bottom: 56, left: 84 };
  const plotWidth = width - margin.left - margin.right;
  const plotHeight = height - margin.top - margin.bottom;
  const count = Math.max(1, ...options.series.map((series) => series.values.length));
  const top = niceCeiling(Math.max(1, ...options.series.flatMap((series) => series.values)));
  const x = (index: number) => margin.left + (count === 1 ? 0 : (index / (count - 1)) * plotWidth);
  const y = (value: number) => margin.top + plotHeight - (value / top) * plotHeight;
  const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="white"/>`,
    `<text x="${width / 2}" y="26" text-anchor="middle" font-size="16" font-weight="bold">${escape(options.title)}</text>`,
  ];
  for (let tick = 0; tick <= 5; tick++) {
    const value = (top / 5) * tick;
    parts.push(
      `<line x1="${margin.left}" x2="${width - margin.right}" y1="${y(value)}" y2="${y(value)}" stroke="#e5e5e5"/>`,
    );
    parts.push(
      `<text x="${margin.left - 8}" y="${y(value) + 4}" text-anchor="end">${Math.round(value).toLocaleString('en-US')}</text>`,
    );
  }
  const step = Math.max(1, Math.ceil(count / 12));
  for (let index = 0; index < count; index += step)
    parts.push(`<text x="${x(index)}" y="${height - margin.bottom + 18}" text-anchor="middle">${index + 1}</text>`);
  parts.push(`<line x1="${margin.left}" x2="${width - margin.right}" y1="${y(0)}" y2="${y(0)}" stroke="#333"/>`);
  parts.push(`<line x1="${margin.left}" x2="${margin.left}" y1="${margin.top}" y2="${y(0)}" stroke="#333"/>`);
  parts.push(
    `<text x="${margin.left + plotWidth / 2}" y="${height - 14}" text-anchor="middle">${escape(options.xLabel)}</text>`,
  );
  parts.push(
    `<text transform="translate(20 ${margin.top + plotHeight / 2}) rotate(-90)" text-anchor="middle">${escape(options.yLabel)}</text>`,
  );
  options.series.forEach((series, position) => {
    const points = series.values.map((value, index) => `${x(index).toFixed(1)},${y(value).toFixed(1)}`).join(' ');
    parts.push(`<polyline fill="none" stroke="${series.color}" stroke-width="2" points="${points}"/>`);
    const legendY = margin.top + 8 + position * 18;
    parts.push(
      `<line x1="${margin.left + 12}" x2="${margin.left + 36}" y1="${legendY}" y2="${legendY}" stroke="${series.color}" stroke-width="3"/>`,
    );
    parts.push(`<text x="${margin.left + 42}" y="${legendY + 4}">${escape(series.name)}</text>`);
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

function niceCeiling(value: number): number {
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * magnitude >= value) return step * magnitude;
  return 10 * magnitude;
}
