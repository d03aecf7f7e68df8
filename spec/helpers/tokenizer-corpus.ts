/**
 * Texts that exercise every branch of the o200k and cl100k split patterns and of byte-level BPE:
 * fixed samples of real shapes, then thousands of seeded random strings.
 */

const samples = [
  '',
  'hello',
  '2026-11-28T10:53:51.123Z INFO  [api-gateway] request_id=7f3a9c2e GET /v2/items?page=3 200 12ms\n',
  '2026-11-28 10:53:51,004 ERROR worker-3 java.lang.NullPointerException: null\n\tat com.example.Foo.bar(Foo.java:42)\n\tat com.example.Main.main(Main.java:7)\n',
  '{"name":"foo","tags":["alpha","beta"],"nested":{"key":"value","n":-12.5e+3,"ok":true,"nil":null}}',
  '{\n  "a": [1, 2],\n  "b": {\n    "c": "d"\n  }\n}\n',
  'function add(a, b) {\n  return a + b; // sum\n}\n\n\n/* done */\nconst x = a?.b ?? c;\n',
  'def f(x):\r\n    return x ** 2\r\n\r\n# comment\r\n',
  "I'm sure it's fine, they're here, we've seen, you'll see, he'd go, don't.\n",
  "I'M SURE IT'S FINE, THEY'RE HERE, WE'VE SEEN, YOU'LL SEE, HE'D GO, DON'T.\n",
  "'s 't 're 've 'm 'll 'd 'S 'T 'Re 'VE 'LL ''s x's 12's",
  '0 12 123 1234 12345 123456789012345678901234567890 3.14159 1,000,000 0x7fffffff',
  ' \t \n\n\n   \r\n\r\n\t\t\tx  \u00a0\u3000\u2003y\u000b\u000c z   ',
  '    \n',
  '   ',
  '🎉🎉🎉 👍🏽 👨‍👩‍👧‍👦 🇫🇷 ❤️ x🎉y',
  '東京は日本の首都です。北京欢迎你！서울특별시 ひらがな カタカナ',
  'العربية لغة جميلة، مرحبا بالعالم 123',
  'हिन्दी भाषा में लिखा गया पाठ',
  'Привет, мир! Как дела? Всё хорошо. ЁЛКИ-ПАЛКИ',
  'e\u0301 a\u0308 n\u0303 combining\u0301\u0302\u0303 \u0301\u0301 ǅungla ǈ',
  'Zürich, São Paulo, naïve café, Ærøskøbing, straße, İstanbul',
  'bad bytes \ufffd\ufffd here \ufffdx\ufffd\n\ufffd',
  '<|endoftext|> text <|im_start|>user<|im_end|> <|fim_prefix|>',
  '\ufeffusing namespace std;\n\ufeff\ufeff\n\ufeff//x \ufeff#y',
  '))\n/path/to/file\n)/ ./a//b ?!/\n',
  'a\ud800b \udc00 \ud83d',
  '='.repeat(700),
  'a'.repeat(1500),
  'x1'.repeat(400),
  '🎉'.repeat(300),
  '東'.repeat(600),
  '\n'.repeat(600),
  ' '.repeat(600),
  'aé'.repeat(500),
  '-_'.repeat(400),
];

/** Pieces random strings are built from, each class of the split patterns represented. */
const alphabet = [
  ...'abcXYZ019 .,;:!?-_/\\\'"()[]{}<>@#$%^&*+=|~`\t\r\n',
  "'s",
  "'LL",
  '  ',
  '\r\n',
  '\u00a0',
  '\u3000',
  '\ufeff',
  'é',
  'e\u0301',
  'ß',
  'Ǆ',
  'ǅ',
  'ʰ',
  '東',
  'か',
  'ع',
  'ह\u093f',
  'Ж',
  'Ω',
  '٣',
  '²',
  'Ⅻ',
  '🎉',
  '👍🏽',
  '\ufffd',
  '\u200d',
  '<|endoftext|>',
];

function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

/** A random code point: mostly assigned ranges (Latin to CJK), sometimes anywhere. */
function randomCodePoint(random: () => number): string {
  const roll = random();
  const codePoint = roll < 0.6 ? Math.floor(random() * 0x3000) : Math.floor(random() * 0x110000);
  // A lone surrogate is not text a decoder produces; take U+FFFD as a decoder would.
  return codePoint >= 0xd800 && codePoint <= 0xdfff ? '\ufffd' : String.fromCodePoint(codePoint);
}

/**
 * The fixed samples, then `count` seeded random strings of 1–60 pieces (from the alphabet
 * above or random code points), then the samples decoded from random bytes (invalid UTF-8).
 *
 * @example
 * ```ts
 * for (const text of tokenizerCorpus()) expect(ours(text)).toBe(reference(text));
 * ```
 */
export function tokenizerCorpus(count = 4_000): string[] {
  const random = seededRandom(0x70c);
  const texts = [...samples];
  for (let index = 0; index < count; index++) {
    let text = '';
    const pieces = 1 + Math.floor(random() * 60);
    for (let piece = 0; piece < pieces; piece++) {
      text +=
        random() < 0.7
          ? (alphabet[Math.floor(random() * alphabet.length)] as string)
          : randomCodePoint(random);
    }
    texts.push(text);
  }
  for (let index = 0; index < 500; index++) {
    const bytes = Buffer.alloc(1 + Math.floor(random() * 80));
    for (let at = 0; at < bytes.length; at++) {
      bytes[at] = random() < 0.5 ? 0x20 + Math.floor(random() * 0x5f) : Math.floor(random() * 256);
    }
    texts.push(bytes.toString('utf8'));
  }
  return texts;
}
