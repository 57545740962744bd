// A job's tables named from its streams_config as OLake names them (types/stream_configured.go
// GetDestinationDatabase / GetDestinationTable, utils.Reformat), and the job detail's scanner keeping a
// small streams_config whole while a large one is only counted.
import { describe, expect, it } from 'vitest';
import { DetailScanner } from '../../src/management/detail.js';
import { reformat, streamTables } from '../../src/management/streams.js';
import { streamsConfig } from '../../src/sandbox/olake-ui/seed.js';

describe('streamTables', () => {
  it('names the emulator’s streams after themselves in their own namespace', () => {
    const config = streamsConfig({ stream_count: 3, source: { id: 1, name: 'pg', type: 'postgres' } });
    expect(streamTables(config)).toEqual([
      { stream: 'public.orders', namespace: ['public'], name: 'orders' },
      { stream: 'public.customers', namespace: ['public'], name: 'customers' },
      { stream: 'public.payments', namespace: ['public'], name: 'payments' },
    ]);
  });

  it('takes destination_database (reformatted), then iceberg_db, then the namespace; destination_table over the name', () => {
    const config = JSON.stringify({
      selected_streams: {
        Sales: [{ stream_name: 'Orders', destination_table: 'orders_v2' }, { stream_name: 'items' }],
        public: [{ stream_name: 'users' }],
      },
      streams: [
        { stream: { name: 'Orders', namespace: 'Sales', destination_database: 'PG:Prod-DB' } },
        { stream: { name: 'items', namespace: 'Sales' } },
      ],
    });
    expect(streamTables(config, 'lake')).toEqual([
      { stream: 'Sales.Orders', namespace: ['pg_prod_db'], name: 'orders_v2' },
      { stream: 'Sales.items', namespace: ['lake'], name: 'items' },
      { stream: 'public.users', namespace: ['lake'], name: 'users' },
    ]);
    expect(streamTables(config)[1]).toEqual({ stream: 'Sales.items', namespace: ['Sales'], name: 'items' });
    expect(reformat('Ünïcode.db-1')).toBe('_n_code_db_1');
  });

  it('refuses a config that is not JSON, and skips entries without a stream name', () => {
    expect(() => streamTables('{not json')).toThrow('the job’s streams_config is not JSON');
    expect(streamTables(JSON.stringify({ selected_streams: { a: [{}, 3, { stream_name: 'x' }] } }))).toEqual([
      { stream: 'a.x', namespace: ['a'], name: 'x' },
    ]);
  });
});

describe('DetailScanner keeps a small streams_config', () => {
  const body = (streams: string) =>
    JSON.stringify({ success: true, data: { id: 1, streams_config: streams } });
  const scan = (text: string, keep: number) => {
    const scanner = new DetailScanner(1024 * 1024, keep);
    // In pieces, as it arrives.
    for (let i = 0; i < text.length; i += 7) scanner.push(text.slice(i, i + 7));
    return scanner;
  };
  const config = streamsConfig({ stream_count: 2, source: { id: 1, name: 'pg', type: 'postgres' } });

  it('whole and unescaped when it fits, with the count', () => {
    const scanner = scan(body(config), 1024 * 1024);
    expect(scanner.streams.config).toBe(config);
    expect(scanner.streams.selected).toBe(2);
    expect(JSON.parse(scanner.text()).data.streams_config).toBe('');
  });

  it('only counted when larger than the limit', () => {
    const scanner = scan(body(config), 100);
    expect(scanner.streams.config).toBeUndefined();
    expect(scanner.streams.selected).toBe(2);
  });
});
