// s3rver ships no types; src/sandbox/s3.ts types what it uses of it.
declare module 's3rver' {
  const S3rver: unknown;
  export default S3rver;
}
