import type { ClassItem } from './class-sequence.js';
import { BytesLineMatcher, type LineMatcher } from './line-matcher.js';
import { rarestLiteral } from './rarest-literal.js';

/** Literal runs shorter than this find too many candidates to be worth a walk each. */
const minimumAnchorBytes = 3;

/** A run of single-byte items: a literal of the sequence, at `[start, end)` of its items. */
interface LiteralRun {
  start: number;
  end: number;
  bytes: Buffer;
}

/**
 * The literal runs of `items` a {@link ClassSequenceLineMatcher} can search for: at least 3
 * bytes each; none in a sequence such as `\d{4}-\d{2}`, which a regex over whole blocks does
 * better.
 *
 * @example
 * ```ts
 * anchorRuns(classSequence('took [0-9]{2}ms') ?? []).map((run) => String(run.bytes)); // ['took ']
 * ```
 */
export function anchorRuns(items: readonly ClassItem[]): LiteralRun[] {
  const runs: LiteralRun[] = [];
  let start = 0;
  for (let index = 0; index <= items.length; index++) {
    const item = items[index];
    const single = item && item.min === 1 && item.max === 1 ? onlyMember(item) : -1;
    if (single >= 0) continue;
    if (index - start >= minimumAnchorBytes) {
      const bytes = Buffer.from(items.slice(start, index).map((literal) => onlyMember(literal)));
      runs.push({ start, end: index, bytes });
    }
    start = index + 1;
  }
  return runs;
}

/** The one byte `item` accepts, or -1. */
function onlyMember(item: ClassItem): number {
  let found = -1;
  for (let byte = 0; byte < 128; byte++) {
    if (item.members[byte] === 0) continue;
    if (found >= 0) return -1;
    found = byte;
  }
  return found;
}

/**
 * Matches a `classSequence` (ASCII literals and classes, `took [0-9]{2}ms`) without a regex
 * engine, a worker or decoding: lines holding one of its literals (the one found least often in
 * the first block, searched as `BytesLineMatcher` searches) are walked outwards from each
 * occurrence, item by item, greedily, which the sequence's shape makes exact.
 *
 * @example
 * ```ts
 * const items = classSequence('took [0-9]{2}ms');
 * const matcher = items && new ClassSequenceLineMatcher(items, anchorRuns(items));
 * matcher?.matchingLines(Buffer.from('took 5ms\ntook 25ms\n')); // [9]
 * ```
 */
export class ClassSequenceLineMatcher implements LineMatcher {
  readonly #items: readonly ClassItem[];
  readonly #runs: readonly LiteralRun[];
  #run: LiteralRun | undefined;
  #search: BytesLineMatcher | undefined;
  /**
   * For `grep -o`: the first run with only fixed-length items before it, which puts every
   * match's start at a fixed distance (`#prefixBytes`) before an occurrence of the run.
   */
  readonly #extentRun: LiteralRun | undefined;
  readonly #prefixBytes: number;

  /** `runs` must be `anchorRuns(items)`, at least one. */
  constructor(items: readonly ClassItem[], runs: readonly LiteralRun[]) {
    this.#items = items;
    this.#runs = runs;
    this.#extentRun = runs.find((run) =>
      items.slice(0, run.start).every((item) => item.min === item.max),
    );
    this.#prefixBytes = items
      .slice(0, this.#extentRun?.start ?? 0)
      .reduce((sum, item) => sum + item.min, 0);
  }

  matchingLines(block: Uint8Array): number[] {
    const starts: number[] = [];
    this.#visit(block, (start) => starts.push(start));
    return starts;
  }

  countMatchingLines(block: Uint8Array): number {
    return this.#visit(block, undefined);
  }

  /**
   * With a fixed-length prefix, the starts a match can have are the occurrences of the run
   * less that prefix, so trying them in order is trying every start in order, as the regex
   * does; from each, the prefix is checked and the rest walked greedily (a lazy last item
   * takes its minimum), which the sequence's shape makes exact.
   */
  visitMatches(bytes: Buffer, visit: (start: number, end: number) => void): boolean {
    const run = this.#extentRun;
    if (!run) return false;
    const prefix = this.#prefixBytes;
    for (let at = bytes.indexOf(run.bytes, prefix); at !== -1; ) {
      const start = at - prefix;
      const end = this.#prefixAt(bytes, start)
        ? this.#walkForward(bytes, run.end, at + run.bytes.length, bytes.length, true)
        : -1;
      if (end === -1) {
        at = bytes.indexOf(run.bytes, at + 1);
        continue;
      }
      visit(start, end);
      // The next match starts at this one's end or later.
      const next = end + prefix;
      at = next + run.bytes.length > bytes.length ? -1 : bytes.indexOf(run.bytes, next);
    }
    return true;
  }

  async dispose(): Promise<void> {}

  #visit(block: Uint8Array, found: ((lineStart: number) => void) | undefined): number {
    const bytes = Buffer.from(block.buffer, block.byteOffset, block.length);
    if (!this.#run) {
      this.#run =
        this.#runs[
          rarestLiteral(
            this.#runs.map((run) => run.bytes),
            bytes,
          )
        ];
      this.#search = new BytesLineMatcher((this.#run as LiteralRun).bytes);
    }
    const run = this.#run as LiteralRun;
    const search = this.#search as BytesLineMatcher;
    let count = 0;
    search.visitLines(bytes, (lineStart, hit, lineEnd) => {
      // Each occurrence in the line, overlapping ones too, until one has a match through it.
      for (let at = hit; at >= 0 && at + run.bytes.length <= lineEnd; ) {
        if (this.#matchesAround(bytes, lineStart, at, at + run.bytes.length, lineEnd)) {
          count++;
          found?.(lineStart);
          return;
        }
        at = bytes.indexOf(run.bytes, at + 1);
      }
    });
    return count;
  }

  /** Whether the items before the run end at `from` and the items after it start at `to`. */
  #matchesAround(bytes: Buffer, lineStart: number, from: number, to: number, lineEnd: number) {
    const items = this.#items;
    const run = this.#run as LiteralRun;
    if (this.#walkForward(bytes, run.end, to, lineEnd, false) === -1) return false;
    let at = from;
    for (let index = run.start - 1; index >= 0; index--) {
      const { members, min, max } = items[index] as ClassItem;
      let taken = 0;
      while (taken < max && at > lineStart && members[bytes[at - 1] as number] === 1) {
        at--;
        taken++;
      }
      if (taken < min) return false;
    }
    return true;
  }

  /**
   * Where items `first` on, walked greedily from `at`, end (a lazy last item takes its minimum
   * when `lazyLast`: only a match's extent tells it apart), or -1 where they do not match.
   */
  #walkForward(bytes: Buffer, first: number, at: number, lineEnd: number, lazyLast: boolean) {
    const items = this.#items;
    let position = at;
    for (let index = first; index < items.length; index++) {
      const { members, min, max, lazy } = items[index] as ClassItem;
      const most = lazyLast && lazy && index === items.length - 1 ? min : max;
      let taken = 0;
      while (taken < most && position < lineEnd && members[bytes[position] as number] === 1) {
        position++;
        taken++;
      }
      if (taken < min) return -1;
    }
    return position;
  }

  /** Whether the fixed-length items before the extent run match from `start` on. */
  #prefixAt(bytes: Buffer, start: number): boolean {
    const items = this.#items;
    let position = start;
    for (let index = 0; index < (this.#extentRun as LiteralRun).start; index++) {
      const { members, min } = items[index] as ClassItem;
      for (let taken = 0; taken < min; taken++) {
        if (members[bytes[position++] as number] !== 1) return false;
      }
    }
    return true;
  }
}
