// The app's key reader (no React; the Ink screens read it through ui/components/useKeys.ts, the line
// prompts directly): turns terminal input, however it was chunked, into the sequence of
// keys it holds. A read over SSH, a paste, tmux send-keys or an expect script can carry many keys at
// once ("http://…\t", "xyzq\x7f\x7f\x7f\x7f", "token\rmore"); every one of them is a key here, in order.
// A bracketed paste (ESC[200~ … ESC[201~) is one `paste` key whose text is never read as keys.

export type KeyName =
  | 'char'
  | 'paste'
  | 'return'
  | 'tab'
  | 'backspace'
  | 'delete'
  | 'escape'
  | 'up'
  | 'down'
  | 'left'
  | 'right'
  | 'home'
  | 'end'
  | 'pageup'
  | 'pagedown'
  /** Ctrl plus a letter (`text` holds the letter): Ctrl-C is `ctrl` + "c". */
  | 'ctrl'
  /** Anything else (function keys, a stray control byte): screens ignore it. */
  | 'other';

export interface Keypress {
  name: KeyName;
  /** One printable character for `char`, the pasted text for `paste`, the letter for `ctrl`. */
  text: string;
  shift: boolean;
  ctrl: boolean;
  meta: boolean;
  /** The bytes the key came from, to hand keys on to the next screen. */
  raw: string;
}

/** Ask the terminal to wrap pastes in ESC[200~ … ESC[201~, and to stop. */
export const BRACKETED_PASTE_ON = '\u001b[?2004h';
export const BRACKETED_PASTE_OFF = '\u001b[?2004l';

const PASTE_START = '\u001b[200~';
const PASTE_END = '\u001b[201~';

function key(name: KeyName, raw: string, extra: Partial<Keypress> = {}): Keypress {
  return { name, text: '', shift: false, ctrl: false, meta: false, raw, ...extra };
}

/** Ctrl-C, wherever it arrives. */
export function isInterrupt(k: Keypress): boolean {
  return k.name === 'ctrl' && k.text === 'c';
}

/** A printable character (`text`) or nothing: what single-letter commands compare against. */
export function charOf(k: Keypress): string {
  return k.name === 'char' ? k.text : '';
}

const CSI_LETTER: Record<string, KeyName> = {
  A: 'up',
  B: 'down',
  C: 'right',
  D: 'left',
  H: 'home',
  F: 'end',
};
const CSI_TILDE: Record<string, KeyName> = {
  '1': 'home',
  '7': 'home',
  '4': 'end',
  '8': 'end',
  '3': 'delete',
  '5': 'pageup',
  '6': 'pagedown',
};

/** The key an escape sequence `ESC [ params final` or `ESC O final` stands for. */
function csiKey(params: string, final: string, raw: string): Keypress {
  const [first = '', modifier = ''] = params.split(';');
  const mod = Math.max(Number(modifier || '1') - 1, 0);
  const flags = { shift: (mod & 1) !== 0, meta: (mod & 2) !== 0, ctrl: (mod & 4) !== 0 };
  if (final === 'Z') return key('tab', raw, { shift: true });
  if (final === '~') {
    const name = CSI_TILDE[first];
    return name ? key(name, raw, flags) : key('other', raw, flags);
  }
  const name = CSI_LETTER[final];
  return name ? key(name, raw, flags) : key('other', raw, flags);
}

/**
 * Length of the escape sequence at `i` (which holds ESC) in `s`: a CSI (ESC [ … final) or SS3 (ESC O x)
 * sequence, else 1, a lone Esc. floe binds no Alt keys, so ESC before anything else (another ESC, a
 * letter) is Esc followed by that key, as when a script sends Esc and then more keys in one write.
 */
function escapeLength(s: string, i: number): number {
  const next = s[i + 1];
  if (next === '[') {
    let j = i + 2;
    if (s[j] === '[') j++; // the Linux console's ESC [ [ A for F1
    while (j < s.length && /[\x20-\x3f]/.test(s[j] as string)) j++;
    return j < s.length ? j - i + 1 : s.length - i;
  }
  if (next === 'O') return Math.min(3, s.length - i);
  return 1;
}

function escapeKey(seq: string): Keypress {
  if (seq === '\u001b') return key('escape', seq);
  if (seq.startsWith('\u001b[')) {
    const body = seq.slice(2).replace(/^\[/, '');
    return csiKey(body.slice(0, -1), body.slice(-1), seq);
  }
  return csiKey('', seq.slice(2), seq);
}

function controlKey(ch: string): Keypress {
  if (ch === '\r' || ch === '\n') return key('return', ch);
  if (ch === '\t') return key('tab', ch);
  if (ch === '\u007f' || ch === '\b') return key('backspace', ch);
  const code = ch.charCodeAt(0);
  if (code >= 1 && code <= 26) return key('ctrl', ch, { ctrl: true, text: String.fromCharCode(code + 96) });
  return key('other', ch, { ctrl: true });
}

/** A C0 or C1 control character, or DEL: never typed into a field. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** Text without control characters (C0, DEL, C1: a stray escape sequence, a tab, a line break). */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '');
}

/**
 * A stateful key reader: `push` each chunk as it is read and get back the keys it completed. A
 * bracketed paste may span chunks; its text is held until ESC[201~ arrives.
 */
export function createKeyReader() {
  let paste: string | undefined;
  return {
    push(chunk: string): Keypress[] {
      const keys: Keypress[] = [];
      let s = chunk;
      let i = 0;
      while (i < s.length) {
        if (paste !== undefined) {
          const end = s.indexOf(PASTE_END, i);
          if (end < 0) {
            paste += s.slice(i);
            return keys;
          }
          const text = paste + s.slice(i, end);
          keys.push(key('paste', PASTE_START + text + PASTE_END, { text }));
          paste = undefined;
          s = s.slice(end + PASTE_END.length);
          i = 0;
          continue;
        }
        const ch = String.fromCodePoint(s.codePointAt(i)!);
        if (s.startsWith(PASTE_START, i)) {
          paste = '';
          i += PASTE_START.length;
        } else if (ch === '\u001b') {
          const length = escapeLength(s, i);
          keys.push(escapeKey(s.slice(i, i + length)));
          i += length;
        } else if (ch === '\r' && s[i + 1] === '\n') {
          keys.push(key('return', '\r\n'));
          i += 2;
        } else if (CONTROL.test(ch)) {
          keys.push(controlKey(ch));
          i += ch.length;
        } else {
          keys.push(key('char', ch, { text: ch, shift: ch !== ch.toLowerCase() }));
          i += ch.length;
        }
      }
      return keys;
    },
  };
}

/** Every key in `data`, read as one chunk. */
export function parseKeys(data: string): Keypress[] {
  return createKeyReader().push(data);
}

/**
 * Puts a terminal's input in raw mode now, before a screen reads keys: keys typed while it is being
 * drawn, or between two screens, then wait unchanged for it (no echo, no line editing by the terminal,
 * no signal). The screen (Ink) takes raw mode over, and turns it off when it is done.
 */
export function holdKeys(stdin: NodeJS.ReadStream = process.stdin): void {
  if (stdin.isTTY) stdin.setRawMode(true);
}
