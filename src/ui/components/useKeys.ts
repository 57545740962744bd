// The one way screens read keys. Each input chunk Ink reads is split into keys (keys.ts) and the
// handler runs once per key, in order, before React renders again: handlers read the latest state
// through a ref (useLatestReducer), never the state of the last frame. A handler returns 'leave' when
// its key ends the screen: the keys after it, and any that arrive until the screen is gone, are kept
// for the next screen that reads keys (the next Ink app of the same process included).
import { type Key as InkKey, useStdin } from 'ink';
import { useEffect, useRef } from 'react';
import { createKeyReader, type KeyName, type Keypress } from '../../text/keys.js';

/** Called once per key; returning 'leave' hands the keys after this one to the next screen. */
export type KeyHandler = (key: Keypress) => unknown;

/** Raw input read by a screen that was leaving, for the next one. */
let handedOver = '';

/** Keys a screen read but kept for the next one (typed while it was saving, say), as raw input. */
export function handOver(raw: string): void {
  handedOver += raw;
}

/** The raw input handed over so far, now taken (the next screen reads it first). */
export function takeHandedOver(): string {
  const raw = handedOver;
  handedOver = '';
  return raw;
}

export function useKeys(handler: KeyHandler, { isActive = true }: { isActive?: boolean } = {}): void {
  const { internal_eventEmitter: events, setRawMode } = useStdin();
  const current = useRef(handler);
  current.current = handler;

  useEffect(() => {
    if (!isActive) return;
    setRawMode(true);
    return () => setRawMode(false);
  }, [isActive, setRawMode]);

  useEffect(() => {
    if (!isActive) return;
    const reader = createKeyReader();
    let leaving = false;
    const feed = (data: string) => {
      if (leaving) {
        handedOver += data;
        return;
      }
      const keys = reader.push(data);
      for (let i = 0; i < keys.length; i++) {
        if (current.current(keys[i] as Keypress) === 'leave') {
          leaving = true;
          handedOver += keys
            .slice(i + 1)
            .map((k) => k.raw)
            .join('');
          return;
        }
      }
    };
    events.on('input', feed);
    const early = takeHandedOver();
    if (early) feed(early);
    return () => {
      events.off('input', feed);
    };
  }, [isActive, events]);
}

/**
 * One key in the shape of Ink's useInput arguments (`input`, `key`), for handlers written against
 * them: `input` is the character (or pasted text), `key` names the rest.
 */
export function inkStyle(k: Keypress): [input: string, key: InkKey] {
  const is = (name: KeyName) => k.name === name;
  return [
    k.name === 'char' || k.name === 'paste' || k.name === 'ctrl' ? k.text : '',
    {
      upArrow: is('up'),
      downArrow: is('down'),
      leftArrow: is('left'),
      rightArrow: is('right'),
      pageDown: is('pagedown'),
      pageUp: is('pageup'),
      home: is('home'),
      end: is('end'),
      return: is('return'),
      escape: is('escape'),
      ctrl: k.ctrl,
      shift: k.shift,
      tab: is('tab'),
      backspace: is('backspace'),
      delete: is('delete'),
      meta: k.meta,
      super: false,
      hyper: false,
      capsLock: false,
      numLock: false,
    },
  ];
}
