// One-line text entry for the browser's filter, project and password inputs, fed from the screen's own key
// handler so that keys typed ahead or pasted right after an input opens are never lost.

export interface LineKey {
  return: boolean;
  backspace: boolean;
  delete: boolean;
}

/** Typed text without control characters (a stray escape sequence, a tab). */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]/g, '');
}

/** The line after one input chunk; a line break (Enter, or inside a pasted chunk) submits what precedes it. */
export function editLine(value: string, input: string, key: LineKey): { value: string; submitted: boolean } {
  if (key.return) return { value, submitted: true };
  if (key.backspace || key.delete) return { value: [...value].slice(0, -1).join(''), submitted: false };
  const cut = input.search(/[\r\n]/);
  const typed = printable(cut < 0 ? input : input.slice(0, cut));
  return { value: value + typed, submitted: cut >= 0 };
}
