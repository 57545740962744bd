// The compose file of the local test stack: an Iceberg REST catalog (Apache's REST fixture on a Postgres
// JDBC backend), Postgres, MinIO with a one-shot bucket helper, and OLake's sync tool behind a profile.
// Secrets are only ever `${VAR}` references to the `.env` file next to it.
import { DATABASE, ENV, NETWORK, type StackSettings } from './plan.js';
import { commented, toYaml, type YamlMap } from './yaml.js';

export const IMAGES = {
  catalog: 'apache/iceberg-rest-fixture:1.10.0',
  postgres: 'postgres:16-alpine',
  minio: 'minio/minio:latest',
  mc: 'minio/mc:latest',
  olake: 'olakego/source-postgres:latest',
} as const;

/** The REST fixture ships the SQLite JDBC driver only; the catalog image adds PostgreSQL's. */
export const POSTGRES_DRIVER = {
  version: '42.7.4',
  url: 'https://repo1.maven.org/maven2/org/postgresql/postgresql/42.7.4/postgresql-42.7.4.jar',
} as const;

/** docker compose interpolates `$`: a literal one is written `$$`. */
function literal(value: string): string {
  return value.replaceAll('$', '$$$$');
}

function ref(name: string): string {
  return `\${${name}}`;
}

function catalogDockerfile(): string {
  const dir = '/usr/lib/iceberg-rest';
  return [
    `FROM ${IMAGES.catalog}`,
    'USER root',
    `RUN curl -fsSL -o ${dir}/postgresql.jar ${POSTGRES_DRIVER.url} && chmod 644 ${dir}/postgresql.jar`,
    'USER iceberg:iceberg',
    `ENTRYPOINT ["java", "-cp", "${dir}/iceberg-rest-adapter.jar:${dir}/postgresql.jar", "org.apache.iceberg.rest.RESTCatalogServer"]`,
    '',
  ].join('\n');
}

function bucketScript(bucket: string): string {
  return [
    'n=0',
    'until mc alias set stack http://minio:9000 "$$MINIO_ROOT_USER" "$$MINIO_ROOT_PASSWORD" >/dev/null; do',
    '  n=$$((n + 1))',
    '  if [ "$$n" -ge 60 ]; then echo "MinIO did not answer within 60 s" >&2; exit 1; fi',
    '  sleep 1',
    'done',
    `mc mb --ignore-existing stack/${bucket}`,
    `mc anonymous set public stack/${bucket}`,
  ].join('\n');
}

export function composeDocument(settings: StackSettings): YamlMap {
  const networks = [NETWORK];
  const keys = { MINIO_ROOT_USER: ref(ENV.accessKey), MINIO_ROOT_PASSWORD: ref(ENV.secretKey) };
  return {
    services: {
      catalog: {
        build: { context: '.', dockerfile_inline: catalogDockerfile() },
        environment: {
          CATALOG_WAREHOUSE: literal(settings.warehouse),
          CATALOG_IO__IMPL: 'org.apache.iceberg.aws.s3.S3FileIO',
          CATALOG_S3_ENDPOINT: 'http://minio:9000',
          CATALOG_S3_PATH__STYLE__ACCESS: 'true',
          CATALOG_URI: `jdbc:postgresql://postgres:5432/${DATABASE.name}`,
          CATALOG_JDBC_USER: DATABASE.user,
          CATALOG_JDBC_PASSWORD: ref(ENV.dbPassword),
          AWS_ACCESS_KEY_ID: ref(ENV.accessKey),
          AWS_SECRET_ACCESS_KEY: ref(ENV.secretKey),
          AWS_REGION: settings.region,
        },
        ports: ['127.0.0.1:8181:8181'],
        healthcheck: {
          test: ['CMD', 'curl', '-fsS', 'http://localhost:8181/v1/config'],
          interval: '5s',
          timeout: '5s',
          retries: 30,
        },
        depends_on: {
          postgres: { condition: 'service_healthy' },
          'minio-setup': { condition: 'service_completed_successfully' },
        },
        networks,
      },
      postgres: {
        image: IMAGES.postgres,
        environment: {
          POSTGRES_DB: DATABASE.name,
          POSTGRES_USER: DATABASE.user,
          POSTGRES_PASSWORD: ref(ENV.dbPassword),
        },
        healthcheck: {
          test: ['CMD-SHELL', `pg_isready -U ${DATABASE.user} -d ${DATABASE.name}`],
          interval: '5s',
          timeout: '5s',
          retries: 20,
        },
        volumes: ['postgres-data:/var/lib/postgresql/data'],
        networks,
      },
      minio: {
        image: IMAGES.minio,
        command: ['server', '/data', '--console-address', ':9001'],
        environment: keys,
        ports: ['127.0.0.1:9000:9000', '127.0.0.1:9001:9001'],
        volumes: ['minio-data:/data'],
        networks,
      },
      'minio-setup': {
        image: IMAGES.mc,
        depends_on: { minio: { condition: 'service_started' } },
        environment: keys,
        entrypoint: ['/bin/sh', '-ec'],
        command: [bucketScript(settings.bucket)],
        restart: 'no',
        networks,
      },
      olake: commented(
        [
          "OLake's sync tool, on the same network; started only with --profile sync. OLake ships one",
          'image per source database: this is the Postgres one (olakego/source-<driver> for others).',
          'It reads source.json, streams.json and destination.json from ./olake; inside this network',
          'the destination reaches the catalog at http://catalog:8181 and MinIO at http://minio:9000.',
        ].join('\n'),
        {
          image: IMAGES.olake,
          profiles: ['sync'],
          command: [
            'sync',
            '--config',
            '/mnt/config/source.json',
            '--catalog',
            '/mnt/config/streams.json',
            '--destination',
            '/mnt/config/destination.json',
          ],
          volumes: ['./olake:/mnt/config'],
          depends_on: { catalog: { condition: 'service_healthy' } },
          networks,
        },
      ),
    },
    networks: {
      [NETWORK]: commented('A fixed name, so that OLake’s own compose can join it as an external network.', {
        name: NETWORK,
      }),
    },
    volumes: { 'postgres-data': {}, 'minio-data': {} },
  };
}

export function renderCompose(settings: StackSettings): string {
  return toYaml(composeDocument(settings), [
    `Local Iceberg test stack written by "floe stack"${settings.profile ? ` for profile "${settings.profile}"` : ''}.`,
    'Secrets are in .env next to this file (mode 0600); this file only refers to them by variable name.',
    'Start: docker compose -f <this file> up -d    Catalog: http://localhost:8181    S3: http://localhost:9000',
  ]);
}
