import type { ToolTelemetry, ToolUiParts, ToolUiPartsInit } from '../tools/ui-parts.js';

/** UI text kept per call: a session log may be long, and it stays in memory with the call. */
const maxUiTextBytes = 64 * 1024;

/**
 * The UI parts a call keeps: the tool's text (cut to 64 KiB of UTF-8, with a note saying how
 * much was cut) and its telemetry with the executor's figures. A part whose promise rejects is
 * left out: a UI's extras never fail the call the model sees.
 *
 * @example
 * ```ts
 * const ui = await resolveUiParts({ text: '$ make all' }, { durationMs: 12, byteLength: 2048 });
 * ```
 */
export async function resolveUiParts(
  parts: ToolUiPartsInit | undefined,
  figures: ToolTelemetry,
): Promise<ToolUiParts> {
  const [text, telemetry] = await Promise.all([settled(parts?.text), settled(parts?.telemetry)]);
  return {
    ...(typeof text === 'string' ? { text: boundedText(text) } : {}),
    telemetry: { ...(typeof telemetry === 'object' ? telemetry : {}), ...figures },
  };
}

async function settled<Value>(value: Value | PromiseLike<Value> | undefined) {
  try {
    return await value;
  } catch {
    return undefined;
  }
}

function boundedText(text: string): string {
  const bytes = Buffer.from(text);
  if (bytes.length <= maxUiTextBytes) return text;
  // Decoding a cut at a byte may end in half a character: drop the replacement it becomes.
  const kept = bytes
    .subarray(0, maxUiTextBytes)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
  return `${kept}\n[ui text cut: ${bytes.length - Buffer.byteLength(kept)} bytes]`;
}
