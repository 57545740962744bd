import { Text } from 'ink';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { useKeys } from '../../../src/ui/components/useKeys.js';
import { renderScreen } from '../setup/support.js';

/** Records the keys it reads; leaves on "x". */
function Reader({ name }: { name: string }) {
  const [seen, setSeen] = useState('');
  useKeys((key) => {
    setSeen((s) => `${s}${key.name === 'char' ? key.text : `<${key.name}>`}`);
    if (key.text === 'x') return 'leave';
  });
  return <Text>{`${name}=[${seen}]`}</Text>;
}

describe('useKeys', () => {
  it('hands the keys after the one that leaves a screen, and those that arrive later, to the next screen', async () => {
    const first = await renderScreen(<Reader name="first" />);
    await first.press('ab\u001b[Ax\tcd');
    await first.press('ef');
    expect(first.frame()).toBe('first=[ab<up>x]');
    await first.unmount();
    const next = await renderScreen(<Reader name="next" />);
    expect(next.frame()).toBe('next=[<tab>cdef]');
    await next.unmount();
  });
});
