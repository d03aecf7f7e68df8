import type { ArtifactKinds } from '../artifact/kinds/artifact-kinds.js';
import type { SpooledArtifact } from '../artifact/spooled-artifact.js';
import type { ToolCallResults } from '../executor/tool-result-content.js';
import { ToolSession, type ToolSessionOptions } from '../executor/tool-session.js';
import { SpoolforgeError } from '../shared/spoolforge-error.js';
import type { ArtifactStore } from '../store/artifact-store.js';
import type { Tool } from '../tools/tool.js';
import { ToolCall } from '../tools/tool-call.js';
import { ConversationLog, type ConversationLogOptions } from './conversation-log.js';
import type { ConversationLogBackend } from './conversation-log-backend.js';
import type { ConversationMessage } from './conversation-message.js';

type ToolMessage = Extract<ConversationMessage, { role: 'tool' }>;

import { toolOutputCacheTools } from './tool-output-cache-tools.js';

/**
 * One conversation as a `ConversationPool` holds it while live: its log and the `ToolSession`
 * its turns run in, which offers the stored outputs of the working set as `callId`s.
 */
export interface PooledConversation {
  readonly conversationId: string;
  readonly log: ConversationLog;
  /** Wrap it in an adapter for a turn: `new OpenAIToolSession({ session })`. */
  readonly session: ToolSession;
}

/** How a `ConversationPool` opens each of its conversations. */
export interface ConversationOpenOptions {
  /** Keeps every conversation's tool outputs, and by default its JSONL log. */
  store: ArtifactStore;
  /**
   * The backend of conversation `conversationId`'s log (PostgreSQL's, your database's),
   * opened each time it is revived and closed when it hibernates; default the JSONL file
   * `<store>/conversations/<conversationId>.jsonl`.
   */
  backend?: (
    conversationId: string,
    options: { signal?: AbortSignal },
  ) => Promise<ConversationLogBackend>;
  /** How each log is opened: `sync`, `maxResultBytes`, `now`. */
  log?: Pick<ConversationLogOptions, 'sync' | 'maxResultBytes' | 'now'>;
  /** The agent's tools, the same for every conversation or made for each one's log. */
  // biome-ignore lint/suspicious/noExplicitAny: tools of every input type
  tools?: Iterable<Tool<any>> | ((log: ConversationLog) => Iterable<Tool<any>>);
  /** Each conversation's `ToolSession` options beside its tools (limits, inlineThreshold, kinds…). */
  session?: Omit<ToolSessionOptions, 'tools' | 'store' | 'calls'>;
  /** Add `toolOutputCacheTools(log)` to each conversation's tools. Default true. */
  toolOutputCache?: boolean;
}

/**
 * Opens conversation `conversationId` from its log and gives it a new `ToolSession` that holds
 * again the calls whose stored outputs the working set's handles name (reopened from the
 * store), so the next projection is the one the conversation would have had without a pause.
 * An output no longer stored is not offered: its handle names `tool_output_cache`, as after a
 * restart.
 *
 * @throws SpoolforgeError what opening the log throws (`E_IO`, `E_LOG_DAMAGED`, `E_ABORTED`),
 *   with everything it opened closed again.
 */
export async function openPooledConversation(
  conversationId: string,
  opener: ConversationOpenOptions,
  options: { signal?: AbortSignal } = {},
): Promise<PooledConversation> {
  const { store } = opener;
  const kinds = opener.session?.kinds ?? store.kinds;
  const signal = options.signal ? { signal: options.signal } : {};
  const backend = await opener.backend?.(conversationId, signal);
  const reopened: { message: ToolMessage; artifact: SpooledArtifact }[] = [];
  let log: ConversationLog | undefined;
  try {
    log = await ConversationLog.open({
      ...opener.log,
      store,
      conversationId,
      ...(backend ? { backend } : {}),
      ...signal,
      keepHandle: async (message, { signal }) => {
        const artifact = await reopen(message, store, kinds, signal);
        if (artifact) reopened.push({ message, artifact });
        return artifact !== undefined;
      },
    });
    const calls = toolCalls(reopened, log.history());
    const tools = typeof opener.tools === 'function' ? opener.tools(log) : (opener.tools ?? []);
    const session = new ToolSession({
      ...opener.session,
      store,
      kinds,
      tools: [...tools, ...(opener.toolOutputCache === false ? [] : toolOutputCacheTools(log))],
      calls,
    });
    return { conversationId, log, session };
  } catch (error) {
    await Promise.all(reopened.map(({ artifact }) => artifact.close()));
    await (log ?? backend)?.close?.().catch(() => undefined);
    throw error;
  }
}

/** The stored output a handle names, or undefined when it is gone (expired, deleted, damaged). */
async function reopen(
  message: ToolMessage,
  store: ArtifactStore,
  kinds: ArtifactKinds,
  signal: AbortSignal | undefined,
): Promise<SpooledArtifact | undefined> {
  if (message.ref === undefined) return undefined;
  try {
    return await store.get(message.ref, { kinds, ...(signal ? { signal } : {}) });
  } catch (error) {
    if (SpoolforgeError.isInstance(error) && error.code === 'E_ABORTED') throw error;
    return undefined;
  }
}

/** The calls that produced the reopened outputs, with the arguments their assistant message sent. */
function toolCalls(
  reopened: readonly { message: ToolMessage; artifact: SpooledArtifact }[],
  history: readonly ConversationMessage[],
): ToolCall<ToolCallResults>[] {
  const sent = new Map<string, string>();
  for (const message of history) {
    if (message.role === 'assistant')
      for (const call of message.toolCalls ?? []) sent.set(call.id, call.arguments);
  }
  return reopened.map(({ message, artifact }) => {
    const call = new ToolCall<ToolCallResults>({
      id: message.toolCallId,
      name: message.toolName,
      arguments: parsed(sent.get(message.toolCallId)),
    });
    call.results = artifact;
    return call;
  });
}

/** The arguments as a `ToolCall` holds them: parsed where the model sent JSON text. */
function parsed(text: string | undefined): unknown {
  if (text === undefined) return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
