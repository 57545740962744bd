// Help text at a terminal's width: lines are rewrapped at word boundaries, never inside a word, keeping
// their layout. A wrapped line continues under where its text starts: a flag's or an action's
// description under the description column, a usage line under its first option, a paragraph at its
// indent. Lines that were wrapped by hand are joined first, so a paragraph flows as one.

export const HELP_WIDTH = 80;

interface Logical {
  /** The first line up to where its text starts (indent, and a flag or an action with its gap). */
  head: string;
  /** Where continuation lines start. */
  indent: number;
  words: string[];
  /** Usage lines and a line ending in ":" take no continuation from the next physical line. */
  closed: boolean;
  /** The physical line, while nothing was joined to it: kept as it is when it fits. */
  raw?: string;
}

const ITEM = /^( +\S(?:.*?\S)?)( {2,})(\S.*)$/;
const USAGE = /^(Usage: +|\s{7})(floe(?: \S+)?) /;
/** A hand-wrapped line was wrapped because it was full: shorter ones end a paragraph. */
const FULL = 60;

function parse(line: string): Logical {
  return { ...split(line), raw: line };
}

function split(line: string): Logical {
  const usage = USAGE.exec(line);
  if (usage && (line.startsWith('Usage:') || line.trimStart().startsWith('floe '))) {
    const head = `${usage[1]}${usage[2]} `;
    return { head, indent: head.length, words: line.slice(head.length).split(/ +/), closed: true };
  }
  const item = ITEM.exec(line);
  if (item) {
    const head = `${item[1]}${item[2]}`;
    return { head, indent: head.length, words: (item[3] ?? '').split(/ +/), closed: line.endsWith(':') };
  }
  const indent = line.length - line.trimStart().length;
  return {
    head: line.slice(0, indent),
    indent,
    words: line.trimStart().split(/ +/),
    closed: line.endsWith(':'),
  };
}

function render(logical: Logical, width: number): string[] {
  if (logical.raw !== undefined && [...logical.raw].length <= width) return [logical.raw];
  const indent = width - logical.indent < 24 ? Math.min(logical.head.length, 6) : logical.indent;
  const lines: string[] = [];
  let current = logical.head;
  let empty = true;
  for (const word of logical.words) {
    if (!empty && current.length + 1 + word.length > width) {
      lines.push(current);
      current = ' '.repeat(indent) + word;
    } else current += empty ? word : ` ${word}`;
    empty = false;
  }
  lines.push(current);
  return lines;
}

/** `text` with no line wider than `width` where a space allows it (a longer word keeps its own line). */
export function reflow(text: string, width = HELP_WIDTH): string {
  const out: string[] = [];
  let open: Logical | undefined;
  let previous = '';
  const flush = () => {
    if (open) out.push(...render(open, width));
    open = undefined;
  };
  for (const line of text.split('\n')) {
    const indent = line.length - line.trimStart().length;
    const continues =
      open !== undefined &&
      !open.closed &&
      line.trim() !== '' &&
      indent === open.indent &&
      previous.length >= FULL &&
      !/^\S+:$/.test(line.trim()) &&
      !ITEM.test(line.slice(indent - Math.min(indent, 2)));
    if (continues && open) {
      open.words.push(...line.trim().split(/ +/));
      open.raw = undefined;
    } else {
      flush();
      if (line.trim() === '') out.push('');
      else open = parse(line);
    }
    previous = line;
  }
  flush();
  return out.join('\n');
}
