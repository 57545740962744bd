import { Box } from 'ink';
import { memo } from 'react';
import { Text } from './Text.js';

/**
 * The one-line key-hint footer every screen shows, e.g. [["↑/↓", "move"], ["Enter", "next"]]. Memoised:
 * pass a constant list and the footer is not re-rendered on every key.
 */
export const KeyHints = memo(function KeyHints({ hints }: { hints: [key: string, action: string][] }) {
  return (
    <Box flexWrap="wrap" columnGap={2}>
      {hints.map(([key, action]) => (
        <Text key={key} dimColor>
          <Text bold>{key}</Text> {action}
        </Text>
      ))}
    </Box>
  );
});
