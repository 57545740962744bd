// The commands to run once the stack is written: start it, point a profile at it, test it.
import { join } from 'node:path';
import { HOST_URLS, type ProfileInput, type StackPlan } from './plan.js';

/** A word the shell passes through unchanged. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** `.` looks a bare file name up in PATH: give it a directory. */
function sourceable(path: string): string {
  return path.includes('/') ? path : `./${path}`;
}

function sameUrl(value: unknown, expected: string): boolean {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    const want = new URL(expected);
    const host = url.hostname === '127.0.0.1' || url.hostname === '[::1]' ? 'localhost' : url.hostname;
    return (
      url.protocol === want.protocol &&
      host === want.hostname &&
      url.port === want.port &&
      url.pathname === '/'
    );
  } catch {
    return false;
  }
}

/** Whether the profile already talks to the stack as it is: its keys, localhost URLs, no auth. */
export function profileMatchesStack(profile: ProfileInput, plan: StackPlan): boolean {
  const { fields } = profile.values;
  return (
    plan.profileKeys &&
    profile.values.authType === 'none' &&
    sameUrl(fields.catalogUrl, HOST_URLS.catalog) &&
    sameUrl(fields.s3Endpoint, HOST_URLS.s3)
  );
}

/**
 * The commands to run next, as printed: `floe` is how floe runs from the user's shell (`npx floe` in a
 * clone). The setup line reads the keys from the sourced .env at run time (--env-secrets), so it needs
 * no keychain.
 */
export function nextSteps(
  dir: string,
  plan: StackPlan,
  profile: ProfileInput | undefined,
  floe = 'floe',
): string[] {
  const compose = shellWord(join(dir, 'compose.yaml'));
  const steps = ['Next:', `  docker compose -f ${compose} up -d`];
  if (profile && profileMatchesStack(profile, plan))
    steps.push(`  ${floe} test --profile ${shellWord(profile.name)}`);
  else {
    const name = profile ? `${profile.name}-stack` : 'stack';
    const { settings } = plan;
    steps.push(
      `  set -a; . ${shellWord(sourceable(join(dir, '.env')))}; set +a    # FLOE_ACCESS_KEY and FLOE_SECRET_KEY for floe`,
      // One command over three lines: each line but the last ends in a real "\" (a line of its own each,
      // so nothing printed holds a line break).
      `  ${floe} setup --profile ${shellWord(name)} --yes --env-secrets --auth-type none \\`,
      `      --catalog-url ${HOST_URLS.catalog} --warehouse ${shellWord(settings.warehouse)} \\`,
      `      --region ${settings.region} --storage s3-compatible --s3-endpoint ${HOST_URLS.s3}`,
      `  ${floe} test --profile ${shellWord(name)}`,
    );
  }
  return [
    ...steps,
    '',
    `Catalog ${HOST_URLS.catalog}, S3 ${HOST_URLS.s3} (console http://localhost:9001), bucket "${plan.settings.bucket}".`,
    `OLake sync: put source.json, streams.json and destination.json in ${shellWord(join(dir, 'olake'))}, then`,
    `  docker compose -f ${compose} --profile sync run --rm olake`,
    `Stop: docker compose -f ${compose} down    (add -v to delete the catalog and the data)`,
  ];
}
