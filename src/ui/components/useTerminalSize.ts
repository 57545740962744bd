import { useStdout } from 'ink';
import { useEffect, useState } from 'react';

export interface TerminalSize {
  columns: number;
  rows: number;
}

function read(stdout: NodeJS.WriteStream): TerminalSize {
  return { columns: stdout.columns || 80, rows: stdout.rows || 24 };
}

/** The terminal's size (80x24 when unknown), updated on resize. */
export function useTerminalSize(): TerminalSize {
  const { stdout } = useStdout();
  const [size, setSize] = useState(() => read(stdout));
  useEffect(() => {
    const onResize = () => setSize(read(stdout));
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return size;
}
