// The OLake driver versions the OLake UI offers: their order, and which one `floe push` picks.

const SEMVER = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

/**
 * Newest first, as the OLake UI sorts driver tags (olake-ui `internal/utils/docker_utils.go`): semver
 * releases by version (v0.10.0 before v0.9.4, a release before its pre-releases), then tags that are
 * not semver (a custom `dev-latest`) last, by name.
 */
export function compareVersions(a: string, b: string): number {
  const pa = SEMVER.exec(a);
  const pb = SEMVER.exec(b);
  if (!pa || !pb) return pa ? -1 : pb ? 1 : a.localeCompare(b);
  for (let i = 1; i <= 3; i++) {
    const d = Number(pb[i]) - Number(pa[i]);
    if (d !== 0) return d;
  }
  if (pa[4] === pb[4]) return 0;
  if (pa[4] === undefined) return -1;
  if (pb[4] === undefined) return 1;
  return pb[4].localeCompare(pa[4], 'en', { numeric: true });
}

/** The profile's target OLake version when the server offers it, else the newest release. */
export function chooseVersion(offered: string[], target: string): string | undefined {
  const wanted = target.replace(/^v/, '');
  if (target !== 'latest') {
    const match = offered.find((v) => v.replace(/^v/, '') === wanted);
    if (match) return match;
  }
  return [...offered].sort(compareVersions)[0];
}
