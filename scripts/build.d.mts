export const PRUNE_AFTER_MS: number;
export function currentBuild(entry: string): string | undefined;
export function buildDist(options?: {
  dist?: string;
  define?: Record<string, string>;
}): Promise<{ id: string; dir: string }>;
/** When the newest of the build's inputs last changed (ms since the epoch). */
export function newestInput(): number;
export function upToDate(dist?: string): boolean;
