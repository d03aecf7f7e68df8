import { createHash } from 'node:crypto';
import { SpoolforgeError } from '../shared/spoolforge-error.js';

/** Values whose JSON is at least this long are stored once and referenced by hash. */
const internBytes = 48;
/** Hashes a log remembers having written; one forgotten is written again, never lost. */
const maxKnown = 4096;

/** The placeholders' keys; an object of the request that has only one of them is escaped. */
const placeholderKeys = new Set(['$v', '$m', '$']);

/**
 * The hashes of values written to one log since it was opened, most recent last, bounded:
 * later calls reference them instead of writing them again.
 */
export class KnownValues {
  readonly #hashes = new Set<string>();

  has(hash: string): boolean {
    if (!this.#hashes.has(hash)) return false;
    this.#hashes.delete(hash); // most recently used last
    this.#hashes.add(hash);
    return true;
  }

  add(hash: string): void {
    this.#hashes.add(hash);
    if (this.#hashes.size > maxKnown)
      this.#hashes.delete(this.#hashes.values().next().value as string);
  }

  /** Hashes whose values were not stored after all. */
  forget(hashes: readonly string[]): void {
    for (const hash of hashes) this.#hashes.delete(hash);
  }
}

/**
 * `value` as JSON, its `messagesKey` a placeholder (`{"$m": 1}`), with every large subtree (a tool set, a tool's schema, the instructions) replaced by
 * `{"$v": hash}`, innermost first, and the values not yet `known` to add beside it. A tool set
 * whose one `callId` enum grew stores that one tool again, not the set.
 *
 * @example
 * ```ts
 * const { skeleton, values } = internValues({ model: 'm', messages: [] }, new KnownValues(), 'messages');
 * ```
 */
export function internValues(
  value: unknown,
  known: KnownValues,
  messagesKey?: string,
): { skeleton: unknown; values: Record<string, unknown> } {
  const values: Record<string, unknown> = {};
  const messages = { $m: 1 };
  // The messages are not copied: replaced in place (the key keeps its position) before the
  // rest is taken as JSON has it (toJSON called, undefined dropped), as its bytes were made.
  const shown = messagesKey === undefined ? value : { ...(value as object), [messagesKey]: 0 };
  const json: unknown = shown === undefined ? undefined : JSON.parse(JSON.stringify(shown));
  if (messagesKey !== undefined) (json as Record<string, unknown>)[messagesKey] = messages;
  const intern = (node: unknown): unknown => {
    if (node === messages) return messages;
    let shown = node;
    if (Array.isArray(node)) shown = node.map(intern);
    else if (node !== null && typeof node === 'object') {
      const entries = Object.entries(node).map(([key, child]) => [key, intern(child)] as const);
      const object = Object.fromEntries(entries.filter(([, child]) => child !== undefined));
      shown = isPlaceholderShaped(object) ? { $: object } : object;
    }
    const text = JSON.stringify(shown);
    if (text === undefined || text.length < internBytes) return shown;
    const hash = createHash('sha256').update(text).digest('base64url').slice(0, 22);
    if (!known.has(hash)) {
      values[hash] = shown;
      known.add(hash);
    }
    return { $v: hash };
  };
  return { skeleton: intern(json), values };
}

/**
 * The value {@link internValues} made `skeleton` from, its hashes looked up in `values`, its
 * messages placeholder replaced by `messages`.
 *
 * @throws SpoolforgeError `E_LOG_DAMAGED` for a hash no stored value has.
 */
export function restoreValues(
  skeleton: unknown,
  values: ReadonlyMap<string, unknown>,
  messages?: unknown,
): unknown {
  const restore = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(restore);
    if (node === null || typeof node !== 'object') return node;
    const keys = Object.keys(node);
    const only = keys.length === 1 ? keys[0] : undefined;
    const inner = (node as Record<string, unknown>)[only ?? ''];
    if (only === '$v') {
      if (!values.has(inner as string)) {
        throw new SpoolforgeError('E_LOG_DAMAGED', `No stored value has the hash ${inner}`);
      }
      return restore(values.get(inner as string));
    }
    if (only === '$m') return messages;
    const object = only === '$' ? (inner as object) : node;
    return Object.fromEntries(Object.entries(object).map(([key, child]) => [key, restore(child)]));
  };
  return restore(skeleton);
}

/** The hashes `skeleton` references, its values' own included once they are known. */
export function referencedHashes(node: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const child of node) referencedHashes(child, into);
  else if (node !== null && typeof node === 'object') {
    const record = node as Record<string, unknown>;
    const keys = Object.keys(record);
    const only = keys.length === 1 ? keys[0] : undefined;
    if (only === '$v') into.add(record.$v as string);
    // An escaped object of the request: its own keys are not placeholders.
    const object = only === '$' ? (record.$ as Record<string, unknown>) : record;
    if (only !== '$v') for (const child of Object.values(object)) referencedHashes(child, into);
  }
  return into;
}

function isPlaceholderShaped(object: object): boolean {
  const keys = Object.keys(object);
  return keys.length === 1 && placeholderKeys.has(keys[0] as string);
}
