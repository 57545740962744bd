// A CONNECT-only HTTP proxy on loopback for the proxy tests: it tunnels to the target (recording each
// one) or refuses the tunnel with 403.
import { connect, createServer, type Server, type Socket } from 'node:net';

/** A CONNECT-only proxy: tunnels (recording each target) unless `deny` is set, then answers 403. */
export class ConnectProxy {
  readonly targets: string[] = [];
  deny = false;
  /** Targets refused with 403 even when `deny` is off. */
  readonly denied = new Set<string>();
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();

  constructor() {
    this.#server = createServer((client) => {
      this.#sockets.add(client);
      client.on('close', () => this.#sockets.delete(client));
      client.once('data', (chunk) => {
        const head = chunk.toString('latin1');
        const target = /^CONNECT (\S+) HTTP\/1\.1\r\n/.exec(head)?.[1];
        if (!target || this.deny || this.denied.has(target)) {
          client.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n');
          return;
        }
        this.targets.push(target);
        const [host, port] = [target.slice(0, target.lastIndexOf(':')), Number(target.split(':').pop())];
        const upstream = connect({ host, port }, () => {
          client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
          upstream.pipe(client);
          client.pipe(upstream);
        });
        this.#sockets.add(upstream);
        upstream.on('close', () => this.#sockets.delete(upstream));
        upstream.on('error', () => client.destroy());
        client.on('error', () => upstream.destroy());
      });
    });
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    const address = this.#server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    return `http://127.0.0.1:${address.port}`;
  }

  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
