// The Iceberg tables a job writes, named from its `streams_config` as OLake names them: the namespace is
// the stream's `destination_database` (through utils.Reformat), else the writer's `iceberg_db`, else the
// stream's own namespace; the table is the stream's `destination_table`, else its name
// (datazip-inc/olake types/stream_configured.go GetDestinationDatabase, GetDestinationTable; the
// selected_streams entry's fields before the stream's, as resolveConfigurableField orders them).

export interface StreamTable {
  /** `namespace.name` of the source stream. */
  stream: string;
  namespace: string[];
  name: string;
}

/** OLake's utils.Reformat: lower case, every character but a-z and 0-9 an underscore. */
export function reformat(key: string): string {
  return key.toLowerCase().replace(/[^a-z0-9]/g, '_');
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');
const object = (value: unknown) =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

/** The tables of the selected streams, in their order; an error names what is wrong with the config. */
export function streamTables(config: string, icebergDb?: string): StreamTable[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(config);
  } catch {
    throw new Error('the job’s streams_config is not JSON');
  }
  const root = object(parsed);
  const streams = new Map<string, Record<string, unknown>>();
  for (const entry of Array.isArray(root.streams) ? root.streams : []) {
    const stream = object(object(entry).stream);
    streams.set(`${text(stream.namespace)}\n${text(stream.name)}`, stream);
  }
  const tables: StreamTable[] = [];
  for (const [namespace, selected] of Object.entries(object(root.selected_streams))) {
    for (const item of Array.isArray(selected) ? selected : []) {
      const chosen = object(item);
      const name = text(chosen.stream_name);
      if (!name) continue;
      const stream = streams.get(`${namespace}\n${name}`) ?? {};
      const database = text(chosen.destination_database) || text(stream.destination_database);
      const table = text(chosen.destination_table) || text(stream.destination_table) || name;
      tables.push({
        stream: `${namespace}.${name}`,
        namespace: [database ? reformat(database) : icebergDb || namespace],
        name: table,
      });
    }
  }
  return tables;
}
