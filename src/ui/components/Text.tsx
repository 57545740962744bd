// The one Text the screens draw with: Ink's Text with every string child sanitized (src/text/sanitize.ts).
// Whatever a screen is handed (a job name, a log line, a value from a file or the environment) cannot act
// on the terminal, whether or not the screen knew where it came from, and a line break in it shows as ^J
// (it cannot forge a row) unless the screen says the text is `multiline`.
// Screens import Text from here, never from ink (test/cli/output-boundary.test.ts).
import { Text as InkText, type TextProps } from 'ink';
import { Children } from 'react';
import { sanitize } from '../../text/sanitize.js';

export type { TextProps };

export function Text({ children, multiline = false, ...props }: TextProps & { multiline?: boolean }) {
  return (
    <InkText {...props}>
      {Children.map(children, (child) =>
        typeof child === 'string' ? sanitize(child, { multiline }) : child,
      )}
    </InkText>
  );
}
