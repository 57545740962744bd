export const PRUNE_AFTER_MS: number;
export function currentBuild(entry: string): string | undefined;
export function buildDist(options?: {
  dist?: string;
  define?: Record<string, string>;
}): Promise<{ id: string; dir: string }>;
export function upToDate(dist?: string): boolean;
