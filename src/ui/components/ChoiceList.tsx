import { Box } from 'ink';
import { Paragraph, paragraphRows } from './Paragraph.js';
import { Text } from './Text.js';

export interface Choice {
  label: string;
  /** floe's own words explaining the choice (line breaks start new rows). */
  help: string;
}

/** Rows a ChoiceList takes at `width`. */
export function choiceListRows(choices: readonly Choice[], width: number): number {
  return choices.reduce((sum, c) => sum + 1 + paragraphRows(c.help, width - 4, true).length, 0);
}

/**
 * A vertical list of choices, each with its help line; the highlighted one is marked › ●. `compact`
 * lists the labels only and shows the highlighted choice's help under the list (for long lists).
 */
export function ChoiceList({
  choices,
  selected,
  width,
  compact = false,
}: {
  choices: readonly Choice[];
  selected: number;
  width: number;
  compact?: boolean;
}) {
  return (
    <Box flexDirection="column" width={width}>
      {choices.map((choice, i) => (
        <Box key={choice.label} flexDirection="column">
          <Text bold={i === selected} color={i === selected ? 'cyan' : undefined}>
            {i === selected ? '› ● ' : '  ○ '}
            {choice.label}
          </Text>
          {!compact && (
            <Box paddingLeft={4} width={width}>
              <Paragraph dimColor own text={choice.help} width={width - 4} />
            </Box>
          )}
        </Box>
      ))}
      {compact && choices[selected] && (
        <Box marginTop={1} width={width}>
          <Paragraph dimColor own text={choices[selected].help} width={width} />
        </Box>
      )}
    </Box>
  );
}
