import type { CliIo } from './io.js';

/**
 * A progress bar on standard error, drawn only when a person is watching (`io.isTty`); `done` clears it, so what
 * the command prints after starts on a clean line. Off a terminal it writes nothing.
 */
export function progressBar(io: Pick<CliIo, 'isTty' | 'stderr'>, label: string) {
  let drawn = false;
  return {
    update(done: number, total: number): void {
      if (!io.isTty || total <= 0) return;
      const width = 24;
      const filled = Math.round((done / total) * width);
      io.stderr(`\r${label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total}`);
      drawn = true;
    },
    done(): void {
      if (drawn) io.stderr('\r\x1b[2K');
      drawn = false;
    },
  };
}
