// A loopback HTTP server that answers like a broken or hostile "S3" endpoint, for faults RGW cannot show.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

export interface FakeS3 {
  endpoint: string;
  port: number;
  /** Every request seen, as `METHOD path?query`. */
  requests: string[];
  close(): Promise<void>;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void;

export async function fakeS3(handler: Handler): Promise<FakeS3> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push(`${req.method} ${req.url}`);
      handler(req, res, Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const xml = (
  res: ServerResponse,
  status: number,
  body: string,
  headers: Record<string, string> = {},
) => {
  res.writeHead(status, { 'content-type': 'application/xml', 'x-amz-request-id': 'FAKE-REQ-1', ...headers });
  res.end(body);
};

export const s3Error = (code: string, message: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message><RequestId>FAKE-REQ-1</RequestId></Error>`;

export const EMPTY_LIST =
  '<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>bucket</Name><Prefix></Prefix><KeyCount>0</KeyCount><MaxKeys>1</MaxKeys><IsTruncated>false</IsTruncated></ListBucketResult>';
