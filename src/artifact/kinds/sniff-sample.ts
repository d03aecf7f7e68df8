/**
 * How much of the start kind detection looks at: enough for JSON's first records, Markdown's
 * first headings and any NUL byte of a binary header.
 *
 * @example
 * ```ts
 * const kind = kinds.sniff(await reader.read(0, sniffBytes), { complete: size <= sniffBytes });
 * ```
 */
export const sniffBytes = 64 * 1024;

/**
 * What a kind's sniffer looks at: the first bytes of an output, as bytes and as text.
 *
 * @example
 * ```ts
 * const sniff = (sample: SniffSample) => /^[^,\n]+(?:,[^,\n]+)+\r?\n/.test(sample.text);
 * ```
 */
export interface SniffSample {
  /** The first {@link sniffBytes} bytes (all of them for a shorter output). */
  readonly bytes: Uint8Array;
  /** `bytes` UTF-8 decoded, without a leading byte order mark. */
  readonly text: string;
  /** True when `bytes` is the whole output, so JSON cut short is not taken for JSON. */
  readonly complete: boolean;
}

/**
 * The sample of `head` the sniffers share (decoded once).
 *
 * @example
 * ```ts
 * looksJsonl(sniffSample(head, { complete: false }));
 * ```
 */
export function sniffSample(head: Uint8Array, options: { complete?: boolean } = {}): SniffSample {
  return {
    bytes: head,
    text: new TextDecoder().decode(head).replace(/^\uFEFF/, ''),
    complete: options.complete ?? false,
  };
}
