import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import type { OpenedTarget } from './open-target.js';

interface Entry {
  opened: Promise<OpenedTarget>;
  /** What the target was opened at (a file's identity, size and times): another means reopen. */
  version: string;
  users: number;
  /** Replaced or evicted: closed when its last query ends. */
  retired: boolean;
}

/**
 * The files and URLs a server has open, by real path or URL, kept for the next query: a model
 * queries one log several times in a row, and reopening would sniff it and load its line index
 * again. The least recently used beyond `capacity`, and one whose file changed, is closed once
 * no query is using it; so is a URL that changed under a query (`E_REMOTE_CHANGED`).
 *
 * @example
 * ```ts
 * const opened = new OpenedTargets(8);
 * const file = await paths.open('build.log');
 * const version = `${file.stats.ino}:${file.stats.size}:${file.stats.mtimeMs}`;
 * const open = (previous?: OpenedTarget) => openFile(file, defaultArtifactKinds, { previous });
 * await opened.use(file.real, version, open, async ({ artifact }) => artifact.lineCount());
 * ```
 */
export class OpenedTargets {
  readonly #capacity: number;
  readonly #entries = new Map<string, Entry>();

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  /**
   * Runs `use` on the target `key` as of `version`: the one kept open, or a new one from `open`
   * (which gets the one it replaces, if that opened). A failed open is not kept.
   */
  async use<T>(
    key: string,
    version: string,
    open: (previous: OpenedTarget | undefined) => Promise<OpenedTarget>,
    use: (opened: OpenedTarget) => Promise<T>,
  ): Promise<T> {
    let entry = this.#entries.get(key);
    this.#entries.delete(key);
    if (entry && entry.version !== version) {
      const previous = entry;
      this.#retire(previous);
      const opened = previous.opened.catch(() => undefined).then(open);
      entry = { opened, version, users: 0, retired: false };
    }
    entry ??= { opened: open(undefined), version, users: 0, retired: false };
    this.#entries.set(key, entry);
    entry.users++;
    try {
      return await use(await entry.opened);
    } catch (error) {
      const failed = await entry.opened.then(
        () => false,
        () => true,
      );
      // A failed open is tried again; a URL that changed under the query is opened afresh.
      const changed = SpoolforgeError.isInstance(error) && error.code === 'E_REMOTE_CHANGED';
      if ((failed || changed) && this.#entries.get(key) === entry) this.#retire(entry);
      throw error;
    } finally {
      entry.users--;
      if (entry.retired && entry.users === 0) await close(entry);
      this.#evict();
    }
  }

  /** Closes every target, and forgets all. */
  async close(): Promise<void> {
    const entries = [...this.#entries.values()];
    this.#entries.clear();
    await Promise.all(entries.map(close));
  }

  #evict(): void {
    for (const entry of this.#entries.values()) {
      if (this.#entries.size <= this.#capacity) return;
      if (entry.users > 0) continue;
      this.#retire(entry);
    }
  }

  #retire(entry: Entry): void {
    for (const [key, each] of this.#entries) if (each === entry) this.#entries.delete(key);
    entry.retired = true;
    if (entry.users === 0) void close(entry);
  }
}

async function close(entry: Entry): Promise<void> {
  const opened = await entry.opened.catch(() => undefined);
  await opened?.artifact.close();
}
