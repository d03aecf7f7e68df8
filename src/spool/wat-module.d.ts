/** A `.wat` module, compiled by `npm run build` (scripts/build.mjs) and inlined as base64. */
declare module '*.wat' {
  const base64: string;
  export default base64;
}
