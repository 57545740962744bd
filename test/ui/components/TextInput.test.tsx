import { Box, Text } from 'ink';
import { useReducer, useRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { editLine, type Line, lineAtEnd } from '../../../src/ui/components/line.js';
import { TextInput } from '../../../src/ui/components/TextInput.js';
import { useKeys } from '../../../src/ui/components/useKeys.js';
import { KEY, renderScreen } from '../setup/support.js';

const LEFT = '\u001B[D';
const RIGHT = '\u001B[C';
const URL = 'http://localhost:8181/api/catalog';

/** A field edited the way screens edit theirs: one key handler, the line in a ref. */
function Field({
  initial = '',
  mask,
  placeholder,
  breaks,
}: {
  initial?: string;
  mask?: string;
  placeholder?: string;
  breaks?: 'join';
}) {
  const line = useRef<Line>(lineAtEnd(initial));
  const submitted = useRef<string>('');
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  useKeys((key) => {
    const edit = editLine(line.current, key, { breaks });
    if (!edit) return;
    line.current = edit.line;
    if (edit.submitted) submitted.current = edit.line.value;
    redraw();
  });
  return (
    <Box flexDirection="column">
      <TextInput line={line.current} mask={mask} placeholder={placeholder} />
      <Text>{`value=[${line.current.value}] submitted=[${submitted.current}]`}</Text>
    </Box>
  );
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('TextInput', () => {
  it('keeps every key sent back to back, and every key of one chunk', async () => {
    const screen = await renderScreen(<Field />);
    await screen.burst(...URL);
    expect(screen.frame()).toContain(`value=[${URL}]`);
    await screen.burst(KEY.backspace, KEY.backspace, 'X', 'Y');
    expect(screen.frame()).toContain(`value=[${URL.slice(0, -2)}XY]`);
    await screen.press('xyzq\u007f\u007f\u007f\u007f');
    expect(screen.frame()).toContain(`value=[${URL.slice(0, -2)}XY]`);
    await screen.press('!\r');
    expect(screen.frame()).toContain(`submitted=[${URL.slice(0, -2)}XY!]`);
    await screen.unmount();
  });

  it('moves the cursor with ←/→ and edits where it is', async () => {
    const screen = await renderScreen(<Field initial="hllo" />);
    await screen.press(LEFT, LEFT, LEFT, 'e', RIGHT, KEY.backspace);
    expect(screen.frame()).toContain('value=[helo]');
    await screen.unmount();
  });

  it('inserts a bracketed paste as text: the first line in a single-line field, all lines joined when asked', async () => {
    const single = await renderScreen(<Field />);
    await single.press('\u001b[200~s3cr3t\r\nsecond line\u001b[201~');
    expect(single.frame()).toContain('value=[s3cr3t] submitted=[]');
    await single.unmount();
    const joined = await renderScreen(<Field breaks="join" />);
    await joined.press('\u001b[200~{\n "type": "x"\n}\u001b[201~', KEY.enter);
    expect(joined.frame()).toContain('value=[{ "type": "x"}] submitted=[{ "type": "x"}]');
    await joined.unmount();
  });

  it('masks the value and shows the placeholder only while empty', async () => {
    const screen = await renderScreen(<Field mask="•" placeholder="e.g. prod-lake" />);
    expect(screen.frame()).toContain('e.g. prod-lake');
    await screen.press('s3cr3t');
    expect(screen.frame().split('\n')[0]).toBe('••••••');
    expect(screen.frame()).not.toContain('prod-lake');
    await screen.unmount();
  });

  it('shows the cursor as a glyph without colour (NO_COLOR)', async () => {
    vi.stubEnv('NO_COLOR', '1');
    const screen = await renderScreen(<Field initial="abc" />);
    expect(screen.frame().split('\n')[0]).toBe('abc█');
    await screen.press(LEFT);
    expect(screen.frame().split('\n')[0]).toBe('ab▏c');
    await screen.unmount();
  });
});
