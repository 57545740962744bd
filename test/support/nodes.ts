// The Node binaries the artifact suite (test/artifact/) runs the npm package with:
// the one running the tests, and the Node 24 binary named by FLOE_TEST_NODE24 when it is set.
export function artifactNodes(): string[] {
  const node24 = process.env.FLOE_TEST_NODE24;
  return node24 ? [process.execPath, node24] : [process.execPath];
}
