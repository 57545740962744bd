import { Box, Text } from 'ink';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { TextInput } from '../../../src/ui/components/TextInput.js';
import { KEY, renderScreen } from '../setup/support.js';

const LEFT = '\u001B[D';
const RIGHT = '\u001B[C';
const URL = 'http://localhost:8181/api/catalog';

function Field({
  initial = '',
  mask,
  placeholder,
}: {
  initial?: string;
  mask?: string;
  placeholder?: string;
}) {
  const [value, setValue] = useState(initial);
  const [submitted, setSubmitted] = useState<string>();
  return (
    <Box flexDirection="column">
      <TextInput
        value={value}
        onChange={setValue}
        onSubmit={setSubmitted}
        mask={mask}
        placeholder={placeholder}
      />
      <Text>{`value=[${value}] submitted=[${submitted ?? ''}]`}</Text>
    </Box>
  );
}

describe('TextInput', () => {
  it('keeps every key sent back to back before a frame is rendered', async () => {
    const screen = await renderScreen(<Field />);
    await screen.burst(...URL);
    expect(screen.frame()).toContain(`value=[${URL}]`);
    await screen.burst(KEY.backspace, KEY.backspace, 'X', 'Y');
    expect(screen.frame()).toContain(`value=[${URL.slice(0, -2)}XY]`);
    await screen.unmount();
  });

  it('moves the cursor with ←/→ and edits where it is', async () => {
    const screen = await renderScreen(<Field initial="hllo" />);
    await screen.press(LEFT, LEFT, LEFT, 'e', RIGHT, KEY.backspace);
    expect(screen.frame()).toContain('value=[helo]');
    await screen.unmount();
  });

  it('inserts a pasted chunk whole, joining its lines, and submits on Enter', async () => {
    const screen = await renderScreen(<Field />);
    await screen.press('{\n "type": "x"\n}', KEY.enter);
    expect(screen.frame()).toContain('value=[{ "type": "x"}] submitted=[{ "type": "x"}]');
    await screen.unmount();
  });

  it('masks the value and shows the placeholder only while empty', async () => {
    const screen = await renderScreen(<Field mask="•" placeholder="e.g. prod-lake" />);
    expect(screen.frame()).toContain('e.g. prod-lake');
    await screen.press('s3cr3t');
    expect(screen.frame().split('\n')[0]).toBe('••••••');
    expect(screen.frame()).not.toContain('prod-lake');
    await screen.unmount();
  });
});
