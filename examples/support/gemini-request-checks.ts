// What the Gemini API refuses in a `generateContent` request, with the 400 body it answers:
// the scripted Gemini wire checks every request the real client sends against these.

type Json = Record<string, unknown>;

/** A part of a content, as the wire reads it. */
export interface GeminiPart {
  text?: string;
  functionCall?: { id?: string; name?: string; args?: Json };
  functionResponse?: { id?: string; name?: string; response?: unknown; parts?: GeminiPart[] };
  inlineData?: { mimeType?: string; data?: string };
  thoughtSignature?: string;
}

/** A turn of `contents`. */
export interface GeminiContent {
  role?: string;
  parts?: GeminiPart[];
}

/** A function declaration of `tools`. */
export interface GeminiDeclaration {
  name?: string;
  description?: string;
  parameters?: Json;
  parametersJsonSchema?: Json;
}

export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The `functionCall`s of a content, in order. */
export const callsOf = (content: GeminiContent | undefined) =>
  (content?.parts ?? []).flatMap((part) => (part.functionCall ? [part.functionCall] : []));
/** The `functionResponse`s of a content, in order. */
export const answersOf = (content: GeminiContent | undefined) =>
  (content?.parts ?? []).flatMap((part) => (part.functionResponse ? [part.functionResponse] : []));

/** Google's 400 body; `field` adds the `BadRequest` detail of payload errors. */
const invalidArgument = (message: string, field?: string) => ({
  error: {
    code: 400,
    message,
    status: 'INVALID_ARGUMENT',
    ...(field === undefined
      ? {}
      : {
          details: [
            {
              '@type': 'type.googleapis.com/google.rpc.BadRequest',
              fieldViolations: [{ field, description: message }],
            },
          ],
        }),
  },
});

/** The fields of the `Schema` message `parameters` is parsed into. */
const schemaFields = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'maxItems',
  'minItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'example',
  'anyOf',
  'propertyOrdering',
  'default',
  'items',
  'minimum',
  'maximum',
]);
const types = new Set([
  'TYPE_UNSPECIFIED',
  'STRING',
  'NUMBER',
  'INTEGER',
  'BOOLEAN',
  'ARRAY',
  'OBJECT',
  'NULL',
]);
/** What a function response takes inline. */
const functionResponseMediaTypes = new Set([
  'image/png',
  'image/jpeg',
  'image/webp',
  'application/pdf',
  'text/plain',
]);

/** The first thing the API refuses in a `parameters` schema at `path`. */
export function checkSchema(schema: Json, path: string): Json | undefined {
  const unknown = Object.keys(schema).find((key) => !schemaFields.has(key));
  if (unknown !== undefined) {
    return invalidArgument(
      `Invalid JSON payload received. Unknown name "${unknown}" at '${path}': Cannot find field.`,
      path,
    );
  }
  const type = schema.type ?? 'TYPE_UNSPECIFIED';
  if (typeof type !== 'string' || !types.has(type)) {
    return invalidArgument(
      `Invalid value at '${path}.type' (type.googleapis.com/google.ai.generativelanguage.v1beta.Type), ${JSON.stringify(type)}`,
      `${path}.type`,
    );
  }
  const values = Array.isArray(schema.enum) ? schema.enum : [];
  const notString = values.findIndex((value) => typeof value !== 'string');
  if (notString >= 0) {
    return invalidArgument(
      `Invalid value at '${path}.enum[${notString}]' (TYPE_STRING), ${JSON.stringify(values[notString])}`,
      `${path}.enum[${notString}]`,
    );
  }
  const request = (detail: string) =>
    invalidArgument(`* GenerateContentRequest.${path}.${detail}\n`);
  const properties = isObject(schema.properties) ? schema.properties : {};
  if (type === 'OBJECT' && Object.keys(properties).length === 0) {
    return request('properties: should be non-empty for OBJECT type');
  }
  if (type === 'ARRAY' && !isObject(schema.items)) return request('items: missing field.');
  if (
    type === 'STRING' &&
    schema.format !== undefined &&
    !['enum', 'date-time'].includes(String(schema.format))
  ) {
    return request("format: only 'enum' and 'date-time' are supported for STRING type");
  }
  const required = Array.isArray(schema.required) ? schema.required : [];
  const undefinedProperty = required.findIndex((name) => !Object.hasOwn(properties, String(name)));
  if (undefinedProperty >= 0)
    return request(`required[${undefinedProperty}]: property is not defined`);
  const children: [Json, string][] = [
    ...Object.entries(properties).map(([name, value]): [Json, string] => [
      value as Json,
      `${path}.properties[${name}].value`,
    ]),
    ...(isObject(schema.items) ? [[schema.items, `${path}.items`] as [Json, string]] : []),
    ...(Array.isArray(schema.anyOf) ? schema.anyOf : []).map((value, index): [Json, string] => [
      value as Json,
      `${path}.any_of[${index}]`,
    ]),
  ];
  for (const [child, at] of children) {
    const error = checkSchema(child, at);
    if (error) return error;
  }
  return undefined;
}

/** The first thing the API refuses in `tools`: a bad name, or a `parameters` schema it cannot read. */
export function checkDeclarations(tools: unknown): Json | undefined {
  const declarations = (
    Array.isArray(tools) ? (tools as { functionDeclarations?: GeminiDeclaration[] }[]) : []
  ).flatMap((tool, toolIndex) =>
    (tool.functionDeclarations ?? []).map((declaration, index) => ({
      declaration,
      path: `tools[${toolIndex}].function_declarations[${index}]`,
    })),
  );
  for (const { declaration, path } of declarations) {
    if (!/^[A-Za-z_][A-Za-z0-9_.:-]{0,127}$/.test(declaration.name ?? '')) {
      return invalidArgument(
        `* GenerateContentRequest.${path}.name: Invalid function name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.), colons (:) or dashes (-), with a maximum length of 128.\n`,
      );
    }
    if (declaration.parameters && declaration.parametersJsonSchema) {
      return invalidArgument(
        `* GenerateContentRequest.${path}: parameters and parameters_json_schema are mutually exclusive.\n`,
      );
    }
    const error =
      declaration.parameters && checkSchema(declaration.parameters, `${path}.parameters`);
    if (error) return error;
  }
  return undefined;
}

/** What the API checks of the turns: calls and their answers pair up, in order. */
export function checkContents(
  contents: GeminiContent[],
  options: { callIds?: boolean },
): Json | undefined {
  const lastQuestion = contents.findLastIndex(
    (content) => content.role === 'user' && answersOf(content).length === 0,
  );
  for (const [index, content] of contents.entries()) {
    const previous = contents[index - 1];
    const calls = callsOf(content);
    if (content.role === 'model' && calls.length > 0) {
      if (previous?.role !== 'user') {
        return invalidArgument(
          'Please ensure that function call turn comes immediately after a user turn or after a function response turn.',
        );
      }
      const first = (content.parts ?? []).findIndex((part) => part.functionCall);
      if (options.callIds && index > lastQuestion && !content.parts?.[first]?.thoughtSignature) {
        return invalidArgument(
          `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${calls[0]?.name}\` , position ${first + 1}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`,
        );
      }
    }
    const answers = answersOf(content);
    if (answers.length === 0) continue;
    const asked = previous?.role === 'model' ? callsOf(previous) : [];
    if (asked.length === 0) {
      return invalidArgument(
        'Please ensure that function response turn comes immediately after a function call turn.',
      );
    }
    if (answers.length !== asked.length) {
      return invalidArgument(
        'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.',
      );
    }
    for (const [position, answer] of answers.entries()) {
      const at = `contents[${index}].parts[${position}].function_response`;
      const call = options.callIds
        ? asked.find((candidate) => candidate.id === answer.id)
        : asked[position];
      if (call === undefined || call.name !== answer.name) {
        return invalidArgument(
          `* GenerateContentRequest.${at}: does not answer the function call ${JSON.stringify(asked[position])} of the function call turn.\n`,
        );
      }
      if (!isObject(answer.response)) {
        return invalidArgument(
          `Invalid value at '${at}.response' (type.googleapis.com/google.protobuf.Struct), ${JSON.stringify(answer.response)}`,
          `${at}.response`,
        );
      }
      const media = (answer.parts ?? []).findIndex(
        (part) => !functionResponseMediaTypes.has(part.inlineData?.mimeType ?? ''),
      );
      if (media >= 0) {
        return invalidArgument(
          `* GenerateContentRequest.${at}.parts[${media}].inline_data.mime_type: unsupported MIME type for a function response.\n`,
        );
      }
    }
  }
  return undefined;
}
