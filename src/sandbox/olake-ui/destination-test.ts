// The destination test as olake-ui answers it (`handlers/etl/destination.go`): olake ≥ v0.9.0 exits
// non-zero on a failed check and the worker returns the whole container log, answered as 400 "failed
// to verify driver credentials: …"; older drivers answer 200 with status FAILED. The check itself
// GET_OR_CREATEs test_olake (check.ts).
import type { LogLine } from '../../management/types.js';
import type { ConnectionCheck } from './check.js';
import { HttpError, isObject, iso, ok, readBody, ulid } from './http.js';
import type { UiState } from './state.js';
import type { Handlers } from './types.js';

/** olake v0.9.0 made `check` exit non-zero on failure (before, it printed a FAILED status and exited 0). */
function exitsOnFailedCheck(version: string): boolean {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  return major > 0 || minor >= 9;
}

/**
 * What the worker returns for a failed `check` container (olake-helm `worker/executor/docker/
 * container.go` ErrExecutionFailed): the whole container log after "exited with status 1".
 */
function containerLog(version: string, result: ConnectionCheck): string {
  const at = iso();
  const lines = [
    `{"level":"info","time":"${at}","message":"OLake ${version} starting check for destination iceberg"}`,
    `{"level":"info","time":"${at}","message":"Starting Iceberg Java writer (JVM) on port 50051"}`,
    `{"level":"debug","time":"${at}","message":"writer config loaded: catalog_type, rest_catalog_url, iceberg_s3_path"}`,
    `{"level":"info","time":"${at}","message":"Creating namespace test_olake and table test_olake"}`,
    `{"level":"error","time":"${at}","message":"${result.message.replace(/"/g, '\\"')}"}`,
    `{"level":"fatal","time":"${at}","message":"check failed: ${result.message.replace(/"/g, '\\"')}"}`,
  ];
  return `connection test failed: workflow execution failed: activity error: container olake-check-${ulid().toLowerCase()} exited with status 1: ${lines.join('\n')}`;
}

export function destinationTestHandlers(state: UiState): Pick<Handlers, 'testDestination'> {
  return {
    testDestination: async ({ req, res }) => {
      const body = await readBody(req);
      if (!isObject(body) || !body.type || !body.version || typeof body.config !== 'string')
        throw new HttpError(400, 'failed to validate request: type, version and config are required');
      let config: unknown;
      try {
        config = JSON.parse(body.config);
      } catch {
        throw new HttpError(
          400,
          'failed to verify driver credentials: connection test failed: invalid config JSON',
        );
      }
      const result = await state.check(config);
      const version = String(body.version);
      if (result.status === 'FAILED' && exitsOnFailedCheck(version))
        throw new HttpError(400, `failed to verify driver credentials: ${containerLog(version, result)}`);
      const logs: LogLine[] = [
        { level: 'info', time: iso(), message: `Running check for destination ${body.type} ${version}` },
        result.status === 'SUCCEEDED'
          ? { level: 'info', time: iso(), message: 'Connection check succeeded' }
          : { level: 'error', time: iso(), message: result.message },
      ];
      return ok(res, `destination ${body.type} connection tested successfully`, {
        connection_result: result,
        logs,
      });
    },
  };
}
