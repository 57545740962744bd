import { Box, Text } from 'ink';

/** The one-line key-hint footer every screen shows, e.g. [["↑/↓", "move"], ["Enter", "next"]]. */
export function KeyHints({ hints }: { hints: [key: string, action: string][] }) {
  return (
    <Box flexWrap="wrap" columnGap={2}>
      {hints.map(([key, action]) => (
        <Text key={key} dimColor>
          <Text bold>{key}</Text> {action}
        </Text>
      ))}
    </Box>
  );
}
