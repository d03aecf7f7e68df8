import type { ResultLimits } from '../artifact/forge/model-lines.js';
import type {
  CompactionRecord,
  ConversationEvent,
  ConversationMessage,
} from './conversation-message.js';
import { messageView, toolOutputRef } from './message-view.js';
import type { ModelCallContext } from './model-call.js';
import { pairToolCalls } from './pair-tool-calls.js';
import { trimmedPlaceholder } from './project-context.js';
import { restoredHandle } from './restored-handle.js';
import { summaryMessage } from './summary-reply.js';

type MessageEvent = Extract<ConversationEvent, { type: 'message' }>;

/**
 * The messages a projection of `events` (after `compaction`'s summary) showed, given which
 * tool outputs `context` says were trimmed: the same steps as `projectContext`, the budget's
 * choices taken from the record instead of counted again.
 *
 * @example
 * ```ts
 * const messages = contextMessages(log.compaction, log.events, { restored: 0 });
 * ```
 */
export function contextMessages(
  compaction: CompactionRecord | undefined,
  events: readonly MessageEvent[],
  context: Pick<ModelCallContext, 'restored' | 'kept' | 'trimmed' | 'limits'>,
): ConversationMessage[] {
  const seqOf = new Map<ConversationMessage, number>();
  const kept = new Set(seqsOfRuns(context.kept ?? []));
  const history = events.map((event) => {
    const rewritten = event.seq < context.restored && !kept.has(event.seq);
    const message = rewritten ? restoredHandle(event.message) : event.message;
    seqOf.set(message, event.seq);
    return message;
  });
  if (compaction) history.unshift(summaryMessage(compaction));
  const trimmed = new Set(seqsOfRuns(context.trimmed ?? []));
  const limits: ResultLimits = context.limits ?? {};
  return pairToolCalls(history, { unanswered: 'interrupted' }).map((message) => {
    const view = messageView(message, limits);
    const seq = seqOf.get(message);
    return view.role === 'tool' && seq !== undefined && trimmed.has(seq)
      ? trimmedPlaceholder(view)
      : view;
  });
}

/**
 * The seqs of the working set's tool messages a projection trimmed (its `trimmed` refs, each
 * matched to the oldest tool message with that ref not matched yet), ascending.
 *
 * @example
 * ```ts
 * const seqs = trimmedSeqs(log.events, ['a1b2']);
 * ```
 */
export function trimmedSeqs(events: readonly MessageEvent[], refs: readonly string[]): number[] {
  const wanted = new Map<string, number>();
  for (const ref of refs) wanted.set(ref, (wanted.get(ref) ?? 0) + 1);
  const seqs: number[] = [];
  for (const { seq, message } of events) {
    if (message.role !== 'tool') continue;
    const ref = toolOutputRef(message);
    const left = wanted.get(ref) ?? 0;
    if (left === 0) continue;
    wanted.set(ref, left - 1);
    seqs.push(seq);
  }
  return seqs;
}

/**
 * Ascending seqs as runs `[first, step, count]`, each as long as it goes.
 *
 * @example
 * ```ts
 * runsOfSeqs([2, 6, 10, 11]); // [[2, 4, 3], [11, 1, 1]]
 * ```
 */
export function runsOfSeqs(seqs: readonly number[]): [number, number, number][] {
  const runs: [number, number, number][] = [];
  for (let index = 0; index < seqs.length; ) {
    const first = seqs[index] as number;
    const step = index + 1 < seqs.length ? (seqs[index + 1] as number) - first : 1;
    let count = 1;
    while (index + count < seqs.length && seqs[index + count] === first + step * count) count++;
    runs.push([first, step, count]);
    index += count;
  }
  return runs;
}

/** The seqs of runs made by {@link runsOfSeqs}. */
function seqsOfRuns(runs: readonly [number, number, number][]): number[] {
  return runs.flatMap(([first, step, count]) =>
    Array.from({ length: count }, (_, index) => first + step * index),
  );
}
