/**
 * A byte count the way people read it: `512 B`, `1.5 KiB`, `20.0 MiB`, `4.0 GiB`.
 *
 * @example
 * ```ts
 * formatBytes(20 * 1024 * 1024); // '20.0 MiB'
 * ```
 */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}
