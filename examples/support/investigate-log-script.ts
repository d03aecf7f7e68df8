// A scripted model that investigates a large log the way a real one would: run the tool, grep
// the spooled output through the forged tools, read around the first hit, answer.
import { callIdsOf, type ScriptedReply, type ScriptedTurn } from './scripted-model.js';

/**
 * Turn 1 calls `firstTool`; then `artifact_grep` for `pattern` on the spooled call; then
 * `artifact_read` around the first match; then answers with what it found.
 */
export function investigateLog(options: {
  firstTool: string;
  firstArguments?: Record<string, unknown>;
  pattern: string;
}) {
  return (turn: ScriptedTurn): ScriptedReply => {
    const grep = turn.tools.find((tool) => tool.name === 'artifact_grep');
    const [callId] = callIdsOf(grep);
    const last = turn.results.at(-1);
    if (turn.results.length === 0 || !callId) {
      return { toolCalls: [{ name: options.firstTool, arguments: options.firstArguments ?? {} }] };
    }
    if (turn.results.length === 1) {
      return {
        toolCalls: [
          { name: 'artifact_grep', arguments: { callId, pattern: options.pattern, maxCount: 5 } },
        ],
      };
    }
    const firstMatch = /^(\d+):/m.exec(last?.text ?? '');
    if (turn.results.length === 2 && firstMatch) {
      const line = Number(firstMatch[1]);
      return {
        toolCalls: [
          {
            name: 'artifact_read',
            arguments: { callId, start: Math.max(1, line - 2), end: line + 2 },
          },
        ],
      };
    }
    const evidence =
      (last?.text ?? '').split('\n').find((line) => line.includes(options.pattern)) ?? 'nothing';
    return { text: `Found it: ${evidence}` };
  };
}
