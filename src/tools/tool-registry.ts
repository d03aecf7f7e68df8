import { SpoolforgeError } from '../shared/spoolforge-error.js';
import type { CollisionPolicy, HandlerDispatch, Tool } from './tool.js';

/** A registry holds tools of every input type; a handler's parameter is checked when called. */
type AnyTool = Tool<unknown>;

/**
 * Tools by name. `merge` combines registries under a collision policy (a tool's own
 * `onCollision` wins over the merge's); `bindContext` prunes ephemeral tools once a dispatch
 * is acked.
 *
 * @example
 * ```ts
 * const registry = new ToolRegistry([runBuild, fetchLog]);
 * const offered = ToolRegistry.merge([registry, forged], { onCollision: 'replace' });
 * offered.bindContext(dispatch); // forged tools disappear on dispatch.ack()
 * ```
 */
export class ToolRegistry {
  readonly #tools = new Map<string, AnyTool>();

  constructor(tools: Iterable<AnyTool> = []) {
    for (const tool of tools) this.register(tool);
  }

  /** A new registry with every tool of `registries`, in order. Default policy: `'throw'`. */
  static merge(
    registries: Iterable<ToolRegistry>,
    options: { onCollision?: CollisionPolicy } = {},
  ): ToolRegistry {
    const merged = new ToolRegistry();
    for (const registry of registries) {
      for (const tool of registry.list()) merged.register(tool, options);
    }
    return merged;
  }

  /** Adds a tool; a name already present is resolved by the tool's or the given policy. */
  register(tool: AnyTool, options: { onCollision?: CollisionPolicy } = {}): this {
    const existing = this.#tools.get(tool.name);
    if (existing) {
      const policy = tool.onCollision ?? options.onCollision ?? 'throw';
      if (policy === 'keep') return this;
      if (policy === 'throw') {
        throw new SpoolforgeError(
          'E_TOOL_ALREADY_REGISTERED',
          `A tool named '${tool.name}' is already registered`,
        );
      }
    }
    this.#tools.set(tool.name, tool);
    return this;
  }

  get(name: string): AnyTool | undefined {
    return this.#tools.get(name);
  }

  has(name: string): boolean {
    return this.#tools.has(name);
  }

  list(): AnyTool[] {
    return [...this.#tools.values()];
  }

  /** Removes a tool; true if it was there. */
  delete(name: string): boolean {
    return this.#tools.delete(name);
  }

  /** Prunes this registry's ephemeral tools when `context` is acked (not when it is nacked). */
  bindContext(context: Pick<HandlerDispatch, 'onAck'>): () => void {
    return context.onAck(() => {
      for (const tool of this.list()) if (tool.ephemeral) this.#tools.delete(tool.name);
    });
  }
}
