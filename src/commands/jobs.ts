import { FloeError } from '../cli/io.js';

export async function run(_argv: string[]): Promise<number> {
  throw new FloeError('"jobs" is not available yet');
}
