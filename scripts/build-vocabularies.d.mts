/** The binary vocabulary of one gpt-tokenizer rank table; throws on a table it cannot hold. */
export declare function encodeVocabulary(name: string, ranks: (string | number[])[]): Buffer;
/** Writes `<directory>/<encoding>.bin` for each encoding spoolforge counts exactly. */
export declare function writeVocabularies(directory: string): Promise<void>;
