import { Box } from 'ink';
import type { ReactNode } from 'react';
import { KeyHints } from './KeyHints.js';
import { truncate } from './layout.js';
import { Text } from './Text.js';

export type Hint = [key: string, action: string];

/** Rows the key-hint footer takes at `width` (items laid out like KeyHints: wrapped, 2 columns apart). */
export function hintRows(hints: readonly Hint[], width: number): number {
  let rows = 1;
  let used = 0;
  for (const [key, action] of hints) {
    const length = key.length + 1 + action.length;
    const needed = used === 0 ? length : used + 2 + length;
    if (needed <= width || used === 0) used = needed;
    else {
      rows++;
      used = length;
    }
  }
  return rows;
}

/** Rows a Screen uses around its body: title, subtitle, two blank rows, the footer. */
export function chromeRows(hints: readonly Hint[], width: number): number {
  return 4 + hintRows(hints, width);
}

/** A full screen: a title line (with a right-aligned position such as "step 2 of 6"), a subtitle, the body, key hints. */
export function Screen({
  title,
  position,
  subtitle,
  width,
  hints,
  children,
}: {
  title: string;
  position?: string;
  subtitle: string;
  width: number;
  hints: Hint[];
  children: ReactNode;
}) {
  const right = position ?? '';
  const left = truncate(title, Math.max(width - right.length - 2, 1));
  return (
    <Box flexDirection="column" width={width}>
      <Box justifyContent="space-between" width={width}>
        <Text bold>{left}</Text>
        <Text dimColor>{right}</Text>
      </Box>
      <Text bold color="cyan">
        {truncate(subtitle, width)}
      </Text>
      <Box marginTop={1} flexDirection="column" width={width}>
        {children}
      </Box>
      <Box marginTop={1} width={width}>
        <KeyHints hints={hints} />
      </Box>
    </Box>
  );
}
