// The Gemini API `generateContent` wire format, for the scripted model: it answers as the real
// API does, and rejects with Google's 400 body what the real API refuses.
import {
  answersOf,
  type GeminiContent as Content,
  callsOf,
  checkContents,
  checkDeclarations,
  type GeminiDeclaration as Declaration,
  isObject,
} from './gemini-request-checks.js';
import type { OfferedTool, ReturnedResult, ScriptedReply, WireFormat } from './scripted-model.js';

/** Options for {@link geminiWire}. */
export interface GeminiWireOptions {
  /**
   * Answer as Gemini 3 models do: each call carries an `id`, the first of a response a
   * `thoughtSignature` that later requests must send back, and answers must name the ids.
   * Default false: Gemini 2 calls, without ids.
   */
  callIds?: boolean;
}

/** A function response's `response` as the text the script reads. */
function textOf(response: unknown): string {
  if (!isObject(response)) return '';
  const value = response.output ?? response.error ?? response;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * `POST /v1beta/models/{model}:generateContent` (and `/v1/`): `tools[].functionDeclarations`
 * with `parameters` or `parametersJsonSchema`, `functionResponse` parts in `user` contents,
 * replies as a `GenerateContentResponse` with `functionCall` or `text` parts.
 */
export function geminiWire(options: GeminiWireOptions = {}): WireFormat {
  return {
    path: /^\/v1(beta|alpha)?\/models\/[^/:]+:generateContent$/,
    parse(body) {
      const tools: OfferedTool[] = (
        (body.tools as { functionDeclarations?: Declaration[] }[] | undefined) ?? []
      )
        .flatMap((tool) => tool.functionDeclarations ?? [])
        .map((declaration) => ({
          name: declaration.name ?? '',
          ...(declaration.description === undefined
            ? {}
            : { description: declaration.description }),
          parameters: declaration.parametersJsonSchema ?? declaration.parameters ?? {},
        }));
      const contents = (body.contents as Content[] | undefined) ?? [];
      const results: ReturnedResult[] = contents.flatMap((content, index) => {
        const asked = callsOf(contents[index - 1]);
        return answersOf(content).map((answer, position) => ({
          callId: answer.id ?? asked[position]?.id ?? `${answer.name}#${position}`,
          text: textOf(answer.response),
          isError: isObject(answer.response) && 'error' in answer.response,
        }));
      });
      const texts = (content: Content | undefined) =>
        (content?.parts ?? [])
          .flatMap((part) => (part.text === undefined ? [] : [part.text]))
          .join('\n');
      const questions = contents.filter(
        (content) => content.role === 'user' && answersOf(content).length === 0,
      );
      return {
        tools,
        results,
        userText: texts(questions.at(-1)),
        transcript: contents.map(texts).join('\n'),
      };
    },
    reject: (body) =>
      checkDeclarations(body.tools) ??
      checkContents((body.contents as Content[] | undefined) ?? [], options),
    format(reply: ScriptedReply, index, body) {
      const parts =
        'text' in reply
          ? [{ text: reply.text }]
          : reply.toolCalls.map((call, position) => ({
              functionCall: {
                ...(options.callIds ? { id: `call_${index}_${position}` } : {}),
                name: call.name,
                args: call.arguments,
              },
              ...(options.callIds && position === 0
                ? { thoughtSignature: Buffer.from(`signature ${index}`).toString('base64') }
                : {}),
            }));
      const promptTokenCount = Math.ceil(JSON.stringify(body).length / 4); // ~4 bytes a token
      const candidatesTokenCount = Math.ceil(JSON.stringify(parts).length / 4);
      return {
        candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
        usageMetadata: {
          promptTokenCount,
          candidatesTokenCount,
          totalTokenCount: promptTokenCount + candidatesTokenCount,
        },
        modelVersion: 'gemini-scripted',
        responseId: `response_${index}`,
      };
    },
  };
}
