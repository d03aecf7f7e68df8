import { DispatchContext, defineTool, ToolRegistry } from 'spoolforge';
import { artifactTool, isArtifactTool } from 'spoolforge/engine';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const tool = (name: string, extra: object = {}) =>
  defineTool({ name, description: name, inputSchema: z.object({}), handler: () => name, ...extra });

describe('ToolRegistry', () => {
  it('registers, gets, lists and refuses a duplicate by default', () => {
    const registry = new ToolRegistry([tool('a'), tool('b')]);
    expect(registry.has('a')).toBe(true);
    expect(registry.get('b')?.name).toBe('b');
    expect(registry.list().map((entry) => entry.name)).toEqual(['a', 'b']);
    expect(() => registry.register(tool('a'))).toThrow(
      expect.objectContaining({ code: 'E_TOOL_ALREADY_REGISTERED' }),
    );
  });

  it('merges under a policy, and a tool’s own onCollision wins over the merge’s', () => {
    const first = new ToolRegistry([
      tool('x', { description: 'first' }),
      tool('y', { description: 'first' }),
    ]);
    const second = new ToolRegistry([
      tool('x', { description: 'second' }),
      tool('y', { description: 'second', onCollision: 'keep' }),
    ]);
    expect(() => ToolRegistry.merge([first, second])).toThrow(
      expect.objectContaining({ code: 'E_TOOL_ALREADY_REGISTERED' }),
    );
    const replaced = ToolRegistry.merge([first, second], { onCollision: 'replace' });
    expect(replaced.get('x')?.description).toBe('second');
    expect(replaced.get('y')?.description).toBe('first');
    const kept = ToolRegistry.merge([first, second], { onCollision: 'keep' });
    expect(kept.get('x')?.description).toBe('first');
    expect(first.get('x')?.description).toBe('first');
  });

  it('prunes ephemeral tools when the bound dispatch is acked, not when it is nacked', () => {
    const build = () => new ToolRegistry([tool('kept'), tool('forged', { ephemeral: true })]);
    const acked = build();
    const ackContext = new DispatchContext({});
    acked.bindContext(ackContext);
    ackContext.ack();
    expect(acked.list().map((entry) => entry.name)).toEqual(['kept']);
    const nacked = build();
    const nackContext = new DispatchContext({});
    nacked.bindContext(nackContext);
    nackContext.nack(new Error('503'));
    expect(nacked.has('forged')).toBe(true);
  });
});

describe('DispatchContext', () => {
  it('runs ack handlers once, unsubscribes, and refuses a second signal', () => {
    const context = new DispatchContext({});
    const seen: string[] = [];
    context.onAck(() => seen.push('first'));
    const unsubscribe = context.onAck(() => seen.push('second'));
    unsubscribe();
    expect(context.state).toBe('pending');
    context.ack();
    expect(seen).toEqual(['first']);
    expect(context.state).toBe('acked');
    expect(() => context.ack()).toThrow(
      expect.objectContaining({ code: 'E_DISPATCH_ALREADY_SIGNALLED' }),
    );
    expect(() => context.nack(new Error('late'))).toThrow(
      expect.objectContaining({ code: 'E_DISPATCH_ALREADY_SIGNALLED' }),
    );
  });

  it('tracks a request: ack when it resolves, nack and rethrow when it rejects', async () => {
    const succeeded = new DispatchContext({});
    expect(await succeeded.track(Promise.resolve('reply'))).toBe('reply');
    expect(succeeded.state).toBe('acked');
    const failed = new DispatchContext({});
    const failure = new Error('429');
    await expect(failed.track(Promise.reject(failure))).rejects.toBe(failure);
    expect(failed.state).toBe('nacked');
  });

  it('hands the error to nack handlers', () => {
    const context = new DispatchContext({});
    const errors: unknown[] = [];
    context.onNack((error) => errors.push(error));
    const failure = new Error('network');
    context.nack(failure);
    expect(errors).toEqual([failure]);
    expect(context.state).toBe('nacked');
  });
});

describe('artifactTool', () => {
  it('brands a tool so calls it makes can be told apart', () => {
    const forged = artifactTool({
      name: 'artifact_x',
      description: '',
      inputSchema: z.object({}),
      handler: () => '',
    });
    expect(isArtifactTool(forged)).toBe(true);
    expect(isArtifactTool(tool('plain'))).toBe(false);
  });
});
