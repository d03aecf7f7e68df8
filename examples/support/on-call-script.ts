// A scripted on-call model for a long conversation: per question it fetches a service's log,
// greps the spooled output, answers; asked to compare with an earlier service, it reads that
// output back by ref with tool_output_cache_grep; asked (without tools) to summarise, it
// answers in <retain>/<summary> tags, naming the refs it saw (`transcript` is the wire's).
import { callIdsOf, type ScriptedReply, type ScriptedTurn } from './scripted-model.js';

const refPattern = /ref=([\w-]+)/g;

/** The script; `userText` and `resultsSinceUser` come from the Chat Completions wire. */
export function onCallScript(turn: ScriptedTurn): ScriptedReply {
  const refs = [
    ...new Set([...(turn.transcript ?? '').matchAll(refPattern)].map((match) => match[1] ?? '')),
  ];
  if (turn.tools.length === 0) {
    return {
      text:
        `<retain>\nStored tool outputs, oldest first: ${refs.map((ref) => `ref=${ref}`).join(', ') || 'none'}\n</retain>\n` +
        '<summary>\nThe user is reviewing checkout incidents service by service; each log ' +
        'was fetched and its ERROR lines found and reported.\n</summary>',
    };
  }
  const question = turn.userText ?? '';
  const results = turn.resultsSinceUser ?? [];
  const compare = /compare/i.test(question);
  const service = /the (\S+) log/.exec(question)?.[1] ?? 'checkout-api';
  if (results.length === 0) {
    if (compare && refs[0]) {
      return {
        toolCalls: [
          {
            name: 'tool_output_cache_grep',
            arguments: { ref: refs[0], pattern: 'ERROR', maxCount: 1 },
          },
        ],
      };
    }
    return { toolCalls: [{ name: 'fetch_service_log', arguments: { service } }] };
  }
  const [newest] = callIdsOf(turn.tools.find((tool) => tool.name === 'artifact_grep')).slice(-1);
  if (results.length === 1 && !compare && newest) {
    return {
      toolCalls: [
        { name: 'artifact_grep', arguments: { callId: newest, pattern: 'ERROR', maxCount: 1 } },
      ],
    };
  }
  const evidence = results
    .at(-1)
    ?.text.split('\n')
    .find((line) => line.includes('ERROR'));
  return {
    text: `${compare ? 'The earlier failure' : 'Found it'}: ${evidence ?? 'no ERROR line'}`,
  };
}
