/** The JavaScript module of the `.wat` file at `path`: its bytes as a base64 default export. */
export function compileWat(path: string): string;
