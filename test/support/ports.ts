// Loopback ports for tests of unreachable servers.
import { createServer } from 'node:net';

/** A loopback port that was bound and closed again: connecting to it is refused. */
export async function refusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
