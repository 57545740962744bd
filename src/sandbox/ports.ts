// The sandbox's ports: each service's preferred one, and the next ones tried when it is busy.

/** The S3 port is s3rver's own default, so a saved sandbox profile still points at it after a restart. */
export const DEFAULT_PORTS = { catalog: 8181, olake: 8000, s3: 4568 } as const;
/** Cloud Storage's (`biglake` only): fake-gcs-server's default, so a saved profile's key file still reaches it. */
export const DEFAULT_GCS_PORT = 4443;
/** How many ports after a busy preferred one are tried before any free port. */
const PORT_ATTEMPTS = 10;

export interface SandboxPorts {
  /** Preferred ports; when busy, the next ones are tried, then any free port. 0: any free port. */
  catalog?: number;
  olake?: number;
  s3?: number;
  /** Cloud Storage (`biglake` only); default DEFAULT_GCS_PORT. */
  gcs?: number;
  /** These services take exactly their port, or the start fails (the user named it: no silent move). */
  exact?: ('catalog' | 'olake' | 's3')[];
}

/** A port the user named is busy. */
export class PortBusyError extends Error {
  constructor(
    readonly service: 'catalog' | 'olake' | 's3',
    readonly port: number,
  ) {
    super(`port ${port} is busy`);
  }
}

const isAddressInUse = (error: unknown) => (error as { code?: unknown }).code === 'EADDRINUSE';

/** Starts `start` on `preferred`, else the next ports, else any free one; notes a move. */
export async function onFreePort<T extends { port: number }>(
  what: string,
  preferred: number,
  start: (port: number) => Promise<T>,
  notices: string[],
  exact?: 'catalog' | 'olake' | 's3',
): Promise<T> {
  const candidates =
    preferred === 0 || exact
      ? [preferred]
      : [...Array.from({ length: PORT_ATTEMPTS }, (_, i) => preferred + i), 0];
  for (const port of candidates) {
    try {
      const started = await start(port);
      if (preferred !== 0 && started.port !== preferred)
        notices.push(`${preferred} is busy; the ${what} is on ${started.port}`);
      return started;
    } catch (error) {
      if (exact && isAddressInUse(error)) throw new PortBusyError(exact, port);
      if (!isAddressInUse(error) || port === 0) throw error;
    }
  }
  throw new Error(`no free port for the ${what}`);
}
