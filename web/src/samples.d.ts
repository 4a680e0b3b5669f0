/** Sample packages, embedded at build time from examples/playground/<name>/ (scripts/build-web.mjs). */
declare module 'krmfn-playground-samples' {
  const samples: Record<string, Record<string, string | { base64: string }>>;
  export default samples;
}
