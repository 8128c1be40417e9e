/** Local estimates against what a provider billed, call by call, and the factor that best maps one onto the other. */
export type CalibrationRow = {
  index: number;
  agent: string;
  estimate: number;
  billed: number | undefined;
  ratio: number | undefined;
};

export type Calibration = {
  rows: CalibrationRow[];
  /** Median of billed / estimate over the calls that carry billed usage; undefined without any. */
  factor: number | undefined;
  /** How far the calls stray from that factor: the largest relative difference. */
  spread: number | undefined;
};

/**
 * Compares local estimates with billed prompt tokens. The factor is a median, so one odd call (cache effects,
 * images) does not move it; multiply local estimates for that provider family by it.
 */
export function calibrate(rows: readonly Omit<CalibrationRow, 'ratio'>[]): Calibration {
  const withRatio = rows.map((row) => ({
    ...row,
    ratio: row.billed === undefined || row.estimate === 0 ? undefined : row.billed / row.estimate,
  }));
  const ratios = withRatio.flatMap((row) => (row.ratio === undefined ? [] : [row.ratio])).sort((a, b) => a - b);
  if (ratios.length === 0) return { rows: withRatio, factor: undefined, spread: undefined };
  const middle = Math.floor(ratios.length / 2);
  const factor =
    ratios.length % 2 === 1
      ? (ratios[middle] as number)
      : ((ratios[middle - 1] as number) + (ratios[middle] as number)) / 2;
  const spread = Math.max(...ratios.map((ratio) => Math.abs(ratio - factor) / factor));
  return { rows: withRatio, factor, spread };
}
