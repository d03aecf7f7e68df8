import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import type { ToolMethodContext } from '../forge/tool-method-descriptor.js';
import { entryPath, type JsonDocument, type JsonEntry, jsonType } from './json-document.js';
import { queryJson } from './json-path-query.js';
import { continueJson, jsonText } from './json-tool-support.js';
import { describeJson, describeLarge, describeRoot, renderJsonValue } from './json-view.js';
import { resolveJsonPath } from './resolve-json-path.js';

/** Entries `[start, end)` of `$` or of the array or object at `path`, one `path = value` line each. */
export async function showSlice(
  document: JsonDocument,
  path: string,
  start: number,
  end: number | undefined,
  context: ToolMethodContext,
): Promise<string> {
  const { text, maxChars } = jsonText(context);
  let entries: AsyncIterable<JsonEntry> | JsonEntry[];
  let total: number;
  const target = await resolveJsonPath(document, path);
  /** The normalized path of what is sliced: its entries' paths extend it. */
  let base = target.prefix;
  if (target.segments.length === 1) {
    const signal = context.signal ? { signal: context.signal } : {};
    total = (await target.document.counts(signal)).indexLimit;
    text.addText(await describeRoot(target.document, base, signal));
    entries = target.document.entries({
      start,
      end: end ?? total,
      signal: context.signal,
      large: true,
    });
  } else {
    const [match] = await (async () => {
      const found: { path: string; value: unknown }[] = [];
      await queryJson(document, path, {
        signal: context.signal,
        onEntry: (matches) => {
          found.push(...matches);
          return false;
        },
      });
      return found;
    })();
    if (!match) throw new SpoolforgeError('E_INVALID_TOOL_ARGS', `No value at ${path}`);
    const value = match.value;
    if (jsonType(value) !== 'array' && jsonType(value) !== 'object') {
      throw new SpoolforgeError(
        'E_INVALID_TOOL_ARGS',
        `${match.path} is a ${describeJson(value)}, not an array or object`,
      );
    }
    const pairs = Array.isArray(value)
      ? value.map((item, index) => ({ index, value: item }))
      : Object.entries(value as object).map(([key, item], index) => ({ index, key, value: item }));
    total = pairs.length;
    text.addText(`${match.path}: ${describeJson(value)}`);
    entries = pairs.slice(start, end ?? total);
    base = match.path;
  }
  let next: number | undefined;
  let shown = 0;
  for await (const entry of entries) {
    const childPath = base + entryPath(entry).slice(1);
    const line = entry.large
      ? `${childPath}: ${await describeLarge(target.document, entry)}, too large to show; query inside it (${childPath}${entry.large.type === 'array' ? '[0]' : '.*'}) or slice it`
      : renderJsonValue(childPath, entry.value, { context, maxChars });
    if (!text.addText(line)) {
      next = entry.index;
      break;
    }
    shown++;
  }
  if (next !== undefined) {
    text.note(
      `[cut: continue with ${continueJson(context, 'slice', { path: base, start: next, end })}]`,
    );
  } else if (shown === 0)
    text.note(`Nothing in [${start}, ${end ?? total}): there are ${total} entries.`);
  return text.toString();
}
