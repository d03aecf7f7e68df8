// The Gemini API as Gemini CLI calls it: `POST /v1beta/models/M:streamGenerateContent?alt=sse`
// (and `:generateContent`, `:countTokens`), answered with `data:` events.
import { type ApiWire, type ModelReply, type SeenResult, sse, stringsIn } from './model-server.js';

interface Part {
  functionCall?: { id?: string; name?: string };
  functionResponse?: { id?: string; name?: string; response?: unknown; parts?: unknown };
}

const responseOf = (reply: ModelReply, _body: Record<string, unknown>, index: number) => ({
  candidates: [
    {
      content: {
        role: 'model',
        parts:
          'text' in reply
            ? [{ text: reply.text }]
            : [
                {
                  functionCall: {
                    id: `call_${index}`,
                    name: reply.call.name,
                    args: reply.call.arguments,
                  },
                },
              ],
      },
      finishReason: 'STOP',
      index: 0,
    },
  ],
  usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 10, totalTokenCount: 110 },
  modelVersion: 'gemini-scripted',
  responseId: `response_${index}`,
});

/** `/v1beta/models/{model}:{streamGenerateContent,generateContent,countTokens}`. */
export const geminiStreamWire: ApiWire = {
  name: 'gemini',
  matches: (path) =>
    /^\/v1(beta|alpha)?\/models\/[^/:]+:(streamGenerateContent|generateContent|countTokens)$/.test(
      path,
    ),
  streams: (path) => path.endsWith(':streamGenerateContent'),
  side: (path) => (path.endsWith(':countTokens') ? { totalTokens: 100 } : undefined),
  parse(body) {
    const tools = (
      (body.tools as { functionDeclarations?: { name?: string }[] }[] | undefined) ?? []
    )
      .flatMap((tool) => tool.functionDeclarations ?? [])
      .map((declaration) => declaration.name ?? '');
    const results: SeenResult[] = ((body.contents as { parts?: Part[] }[] | undefined) ?? [])
      .flatMap((content) => content.parts ?? [])
      .flatMap((part) => (part.functionResponse ? [part.functionResponse] : []))
      .map((answer) => ({
        callId: answer.id ?? answer.name ?? '',
        raw: answer,
        text: stringsIn([answer.response, answer.parts]),
      }));
    return { tools, results };
  },
  json: responseOf,
  stream: (reply, body, index) => sse(undefined, responseOf(reply, body, index)),
};
