const prefix = 'spoolforge://artifacts/';

/**
 * The URI of a stored output in a proxy's `resource_link`s and `resources/read`.
 *
 * @example
 * ```ts
 * artifactUri('q3HfD0rVZk2mXb7Tn1LwAg'); // 'spoolforge://artifacts/q3HfD0rVZk2mXb7Tn1LwAg'
 * ```
 */
export function artifactUri(id: string): string {
  return `${prefix}${id}`;
}

/**
 * The id in an {@link artifactUri}, else `undefined` (a URI of the upstream server's).
 *
 * @example
 * ```ts
 * artifactIdOf('spoolforge://artifacts/q3HfD0rVZk2mXb7Tn1LwAg'); // 'q3HfD0rVZk2mXb7Tn1LwAg'
 * artifactIdOf('file:///var/log/syslog'); // undefined
 * ```
 */
export function artifactIdOf(uri: string): string | undefined {
  return uri.startsWith(prefix) ? uri.slice(prefix.length) : undefined;
}
