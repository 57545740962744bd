import { useEffect, useState } from 'react';
import { Text } from '../components/Text.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** A one-cell braille spinner; `intervalMs` 0 shows a still frame (tests, screenshots). */
export function Spinner({ intervalMs = 80, color = 'cyan' }: { intervalMs?: number; color?: string }) {
  const [frame, setFrame] = useState(0);
  useEffect(() => {
    if (intervalMs <= 0) return;
    const timer = setInterval(() => setFrame((f) => (f + 1) % FRAMES.length), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return <Text color={color}>{FRAMES[frame]}</Text>;
}
