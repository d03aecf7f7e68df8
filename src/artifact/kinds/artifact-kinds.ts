import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import type { ToolMethodDescriptor } from '../forge/tool-method-descriptor.js';
import type { SpooledArtifact } from '../spooled-artifact.js';
import type { ArtifactKind } from './artifact-kind.js';
import { isExactMediaType, matchesMediaType, mediaTypeEssence } from './media-types.js';
import { sniffSample } from './sniff-sample.js';

/** The kind each artifact was spooled or reopened as: kinds that share a class tell theirs apart. */
const kindNames = new WeakMap<SpooledArtifact, string>();

/**
 * Records that `artifact` was spooled or reopened as `kind`, for {@link ArtifactKinds.of}.
 *
 * @example
 * ```ts
 * const log = labelKind(SpooledArtifact.fromFile('app.log'), defaultArtifactKinds.named('text'));
 * ```
 */
export function labelKind<Artifact extends SpooledArtifact>(
  artifact: Artifact,
  kind: ArtifactKind,
): Artifact {
  kindNames.set(artifact, kind.name);
  return artifact;
}

/**
 * The registry of {@link ArtifactKind}s that `spool`, `ArtifactStore` (`put` and `get`), the
 * executor and forging all read: which kind an output is (declared, by media type, or sniffed),
 * which class it is opened as, and which tools are forged for it. Immutable; `with` makes a
 * new one. The built-in one is `defaultArtifactKinds`.
 *
 * @example
 * ```ts
 * const kinds = defaultArtifactKinds.with(csvKind);
 * await using artifact = await spool(stream, { kinds });      // a CsvArtifact when it looks like CSV
 * const session = new ToolSession({ tools, kinds });          // forges csv tools for csv outputs
 * ```
 */
export class ArtifactKinds {
  readonly #kinds: readonly ArtifactKind[];

  /**
   * A registry of `kinds`, in the order they are sniffed. Two kinds of one name, or one tool
   * name with two descriptors, are `E_INVALID_ARGUMENT`.
   */
  constructor(kinds: Iterable<ArtifactKind>) {
    this.#kinds = Object.freeze([...kinds]);
    const names = new Set<string>();
    const descriptors = new Map<string, ToolMethodDescriptor<SpooledArtifact>>();
    for (const kind of this.#kinds) {
      if (names.has(kind.name)) {
        throw new SpoolforgeError(
          'E_INVALID_ARGUMENT',
          `Two artifact kinds are named '${kind.name}'`,
        );
      }
      names.add(kind.name);
      for (const method of kind.toolMethods) {
        const known = descriptors.get(method.name);
        if (known !== undefined && known !== method) {
          throw new SpoolforgeError(
            'E_INVALID_ARGUMENT',
            `Kind '${kind.name}' offers a tool '${method.name}' unlike another kind's of that name`,
          );
        }
        descriptors.set(method.name, method);
      }
    }
  }

  /**
   * A new registry with `kinds` added: a kind named like one here replaces it in its place, the
   * others come first (so their sniffers are asked before the built-in ones).
   */
  with(...kinds: ArtifactKind[]): ArtifactKinds {
    const byName = new Map(kinds.map((kind) => [kind.name, kind]));
    const replaced = this.#kinds.map((kind) => byName.get(kind.name) ?? kind);
    const added = kinds.filter((kind) => !this.#kinds.some((known) => known.name === kind.name));
    return new ArtifactKinds([...added, ...replaced]);
  }

  /** Every kind, in the order they are sniffed. */
  list(): readonly ArtifactKind[] {
    return this.#kinds;
  }

  /** The kind of that name, or `undefined`. */
  get(name: string): ArtifactKind | undefined {
    return this.#kinds.find((kind) => kind.name === name);
  }

  /**
   * The kind a declared media type means (parameters ignored), or `undefined` for one that says
   * nothing useful (`application/octet-stream`). An exact entry wins over `text/*` or `+json`.
   */
  ofMediaType(mediaType: string): ArtifactKind | undefined {
    const essence = mediaTypeEssence(mediaType);
    const matching = (exact: boolean) =>
      this.#kinds.find((kind) =>
        kind.mediaTypes?.some(
          (pattern) => isExactMediaType(pattern) === exact && matchesMediaType(pattern, essence),
        ),
      );
    return matching(true) ?? matching(false);
  }

  /**
   * The first kind whose sniffer recognises `head` (an output's first `sniffBytes` bytes), else
   * the last kind. Pass `complete: true` when `head` is the whole output.
   */
  sniff(head: Uint8Array, options: { complete?: boolean } = {}): ArtifactKind {
    const sample = sniffSample(head, options);
    const found = this.#kinds.find((kind) => kind.sniff?.(sample) === true);
    const kind = found ?? this.#kinds.at(-1);
    if (!kind) throw new SpoolforgeError('E_INVALID_ARGUMENT', 'The artifact kinds are empty');
    return kind;
  }

  /**
   * The kind of an output: the one named by `kind` (an unknown name is `E_INVALID_ARGUMENT`),
   * else the one its declared `mediaType` means, else the one its first bytes show.
   */
  resolve(options: {
    kind?: string | undefined;
    mediaType?: string | undefined;
    head: Uint8Array;
    complete: boolean;
  }): ArtifactKind {
    if (options.kind !== undefined) return this.named(options.kind);
    const declared = options.mediaType ? this.ofMediaType(options.mediaType) : undefined;
    return declared ?? this.sniff(options.head, { complete: options.complete });
  }

  /** The kind of that name; an unknown name is `E_INVALID_ARGUMENT`, naming the known ones. */
  named(name: string): ArtifactKind {
    const kind = this.get(name);
    if (kind) return kind;
    const known = this.#kinds.map((each) => each.name).join(', ');
    throw new SpoolforgeError('E_INVALID_ARGUMENT', `No artifact kind '${name}' (kinds: ${known})`);
  }

  /**
   * The kind an artifact belongs to: the one it was spooled or reopened as (when this registry
   * has it and the artifact is of its class), else of the kinds of its class (else of the
   * nearest class it extends) the one named like its `kind`, else the first. `undefined` when
   * none fits.
   */
  of(artifact: SpooledArtifact): ArtifactKind | undefined {
    const name = kindNames.get(artifact);
    const labelled = name === undefined ? undefined : this.get(name);
    if (labelled && artifact instanceof labelled.artifactClass) return labelled;
    for (
      let current: unknown = artifact.constructor;
      typeof current === 'function';
      current = Object.getPrototypeOf(current)
    ) {
      const candidates = this.#kinds.filter((kind) => kind.artifactClass === current);
      if (candidates.length > 0) {
        return candidates.find((kind) => kind.name === artifact.kind) ?? candidates[0];
      }
    }
    return undefined;
  }

  /** The queries forged for an artifact: those of its kind (none when no kind fits). */
  toolMethodsOf(artifact: SpooledArtifact): readonly ToolMethodDescriptor<SpooledArtifact>[] {
    return this.of(artifact)?.toolMethods ?? [];
  }
}
