// Two panels of the report analyst's line chart (examples/report-analyst/svg-chart.ts), one above the other: every
// series at full scale, then the compacted ones alone, whose prompts the uncompacted one would flatten to the axis.
import { lineChartSvg, type Series } from '../examples/report-analyst/svg-chart.js';

const PANEL_HEIGHT = 460;

export function stackedChartSvg(
  panels: readonly { title: string; series: readonly Series[] }[],
  axes: { xLabel: string; yLabel: string },
): string {
  const inner = panels.map((panel, index) =>
    lineChartSvg({ title: panel.title, xLabel: axes.xLabel, yLabel: axes.yLabel, series: panel.series })
      .trimEnd()
      .replace('<svg ', `<svg y="${index * PANEL_HEIGHT}" `),
  );
  const height = panels.length * PANEL_HEIGHT;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="860" height="${height}" viewBox="0 0 860 ${height}">`,
    ...inner,
    '</svg>',
    '',
  ].join('\n');
}
