// The screen-to-SVG conversion behind `npm run screenshots`: styled spans, colours of every kind,
// backgrounds and inverse video, at fixed cell positions.
import xterm from '@xterm/headless';
import { describe, expect, it } from 'vitest';
import { screenToSvg } from '../../scripts/lib/terminal.mjs';

function terminalWith(text: string, cols = 20, rows = 4): Promise<xterm.Terminal> {
  const term = new xterm.Terminal({ cols, rows, allowProposedApi: true });
  return new Promise((resolve) => term.write(text, () => resolve(term)));
}

describe('screenToSvg', () => {
  it('writes one text run per styled span with its colour, weight and position', async () => {
    const term = await terminalWith(
      'ab\u001B[1;31mred\u001B[0m \u001B[38;5;196mX\u001B[38;2;1;2;3mY\u001B[0m\r\n\u001B[2mdim\u001B[0m a<b',
    );
    const svg = screenToSvg(term, { title: 'demo & test' });
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="192" height="96"/);
    expect(svg).toContain('<title>demo &amp; test</title>');
    expect(svg).toMatch(/<text x="12\.00" y="\d+"[^>]*textLength="16\.80"[^>]*>ab<\/text>/);
    expect(svg).toMatch(
      /<text x="28\.80"[^>]*textLength="25\.20"[^>]*fill="#e06c75" font-weight="bold">red<\/text>/,
    );
    expect(svg).toMatch(/fill="#ff0000"[^>]*>X<\/text>/);
    expect(svg).toMatch(/fill="#010203"[^>]*>Y<\/text>/);
    expect(svg).toMatch(/opacity="0\.6">dim<\/text>/);
    expect(svg).toContain('> a&lt;b</text>');
  });

  it('draws backgrounds and inverse video as rects behind the text', async () => {
    const term = await terminalWith('\u001B[44m  \u001B[0m\u001B[7minv\u001B[0m');
    const svg = screenToSvg(term);
    expect(svg).toMatch(/<rect x="12\.00" y="12" width="16\.80" height="18" fill="#61afef"\/>/);
    expect(svg).toMatch(/<rect x="28\.80" y="12" width="25\.20" height="18" fill="#d9dce6"\/>/);
    expect(svg).toMatch(/fill="#1e1e2e"[^>]*>inv<\/text>/);
  });

  it('crops the blank rows at the bottom when asked', async () => {
    const term = await terminalWith('one\r\ntwo', 10, 6);
    expect(screenToSvg(term)).toMatch(/height="132"/);
    expect(screenToSvg(term, { crop: true })).toMatch(/height="60"/);
  });
});
