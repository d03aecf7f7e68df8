import type { SpooledArtifact } from '../../artifact/spooled-artifact.js';
import type { ArtifactStore } from '../../store/artifact-store.js';

interface Entry {
  artifact: Promise<SpooledArtifact>;
  users: number;
}

/**
 * The store's artifacts a proxy has open, by id: a model usually queries one output several
 * times in a row, and reopening reads its sidecar (line index included) each time. The least
 * recently used beyond `capacity` is closed once no query is using it.
 */
export class OpenArtifacts {
  readonly #store: ArtifactStore;
  readonly #capacity: number;
  readonly #entries = new Map<string, Entry>();

  constructor(store: ArtifactStore, capacity = 8) {
    this.#store = store;
    this.#capacity = capacity;
  }

  /** Runs `use` on the artifact `id` (opened if it is not); a store error rejects. */
  async use<T>(id: string, use: (artifact: SpooledArtifact) => Promise<T>): Promise<T> {
    let entry = this.#entries.get(id);
    if (entry) this.#entries.delete(id);
    else entry = { artifact: this.#store.get(id), users: 0 };
    this.#entries.set(id, entry);
    entry.users++;
    try {
      return await use(await entry.artifact);
    } catch (error) {
      // A failed open is not kept: the next query tries again.
      if (
        (await entry.artifact.then(
          () => false,
          () => true,
        )) &&
        this.#entries.get(id) === entry
      )
        this.#entries.delete(id);
      throw error;
    } finally {
      entry.users--;
      await this.#evict();
    }
  }

  /** Closes every artifact not in use, and forgets all. */
  async close(): Promise<void> {
    const entries = [...this.#entries.values()];
    this.#entries.clear();
    await Promise.all(entries.map((entry) => closeEntry(entry)));
  }

  async #evict(): Promise<void> {
    for (const [id, entry] of this.#entries) {
      if (this.#entries.size <= this.#capacity) return;
      if (entry.users > 0) continue;
      this.#entries.delete(id);
      await closeEntry(entry);
    }
  }
}

async function closeEntry(entry: Entry): Promise<void> {
  const artifact = await entry.artifact.catch(() => undefined);
  await artifact?.close();
}
