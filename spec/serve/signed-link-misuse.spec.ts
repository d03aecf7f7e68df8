import { join } from 'node:path';
import {
  ArtifactStore,
  createArtifactHandler,
  createLinkSigner,
  SpoolforgeError,
  type ToolEvent,
  uiToolEvents,
} from 'spoolforge';
import { describe, expect, it } from 'vitest';
import { listen } from '../helpers/http-servers.js';
import { tempDirectory } from '../helpers/temp-files.js';

const key = 'a-link-signing-key-of-32-bytes!!';

async function storeWithArtifacts() {
  const store = await ArtifactStore.open(join(await tempDirectory(), 'store'));
  const secret = await store.put('secret of another team\n', { name: 'payroll' });
  return { store, secret };
}

/** Expects `run` to throw a SpoolforgeError `E_INVALID_ARGUMENT`. */
function expectInvalid(run: () => unknown): void {
  expect(run).toThrow(SpoolforgeError);
  expect(run).toThrow(expect.objectContaining({ code: 'E_INVALID_ARGUMENT' }));
}

describe('signed links: what a careless caller or an attacker cannot make of them', () => {
  it('refuses to sign a path with a dot segment, which the URL resolves to its parent (the index)', async () => {
    const { store } = await storeWithArtifacts();
    const signer = createLinkSigner({ key });
    const origin = await listen(createArtifactHandler(store, { signedLinks: { signer } }));
    // An artifact named '.' (names are free text), linked the usual way: the URL resolves
    // `/artifacts/.` to `/artifacts/`, so the signature would be one over the index.
    for (const name of ['.', '..', '%2e', '.%2E']) {
      const artifact = `${origin}/artifacts/${name}`;
      expectInvalid(() => signer.sign(`${artifact}/view`, { scope: artifact }));
      expectInvalid(() => signer.sign(artifact));
    }
    expectInvalid(() => signer.sign('/artifacts\\./view', { scope: '/artifacts\\.' }));
    expectInvalid(() => signer.sign('/root/../artifacts'));
    // A UI link for such a ref is refused too, instead of a link that opens the whole store.
    const events: ToolEvent[] = [
      { type: 'complete', toolCallId: 'c1', toolName: 'read', result: 'x'.repeat(9000), ref: '.' },
    ];
    const reading = (async () => {
      for await (const _ of uiToolEvents(
        (async function* () {
          yield* events;
        })(),
        { baseUrl: `${origin}/artifacts`, signedLinks: { signer } },
      ));
    })();
    await expect(reading).rejects.toMatchObject({ code: 'E_INVALID_ARGUMENT' });
    // Dots inside a segment are no dot segment: `.config` and `a..b` sign as they are.
    const dotted = signer.sign(`${origin}/artifacts/.config`);
    expect(signer.verify(dotted)).toMatchObject({ valid: true, scope: '/artifacts/.config' });
    expect(signer.verify(signer.sign('/artifacts/a..b')).valid).toBe(true);
  });

  it('refuses a UI baseUrl with a query or fragment, under which every link would be the index', async () => {
    const { store, secret } = await storeWithArtifacts();
    const signer = createLinkSigner({ key });
    const origin = await listen(createArtifactHandler(store, { signedLinks: { signer } }));
    for (const baseUrl of [`${origin}/artifacts?team=build`, `${origin}/artifacts#viewer`]) {
      const events = uiToolEvents(
        (async function* (): AsyncGenerator<ToolEvent> {
          yield { type: 'complete', toolCallId: 'c', toolName: 'read', result: 'y\n'.repeat(9000) };
        })(),
        { store, baseUrl, signedLinks: { signer } },
      );
      // Appended to such a base, the artifact's path lands in the query or the fragment: the
      // link's path, and the scope it was signed over, would be the index's.
      const reading = (async () => {
        for await (const event of events) {
          const url = 'artifact' in event ? (event.artifact.url ?? '') : '';
          const listing = await fetch(new URL(url).href.replace(/#.*$/, ''));
          expect(await listing.text()).not.toContain(secret.id);
        }
      })();
      await expect(reading).rejects.toMatchObject({ code: 'E_INVALID_ARGUMENT' });
    }
  });

  it('refuses a signedLinks without a usable signer instead of serving unsigned requests', async () => {
    const { store } = await storeWithArtifacts();
    for (const signer of [undefined, null, {}]) {
      const options = { signedLinks: { signer } } as unknown as Parameters<
        typeof createArtifactHandler
      >[1];
      expectInvalid(() => createArtifactHandler(store, options));
    }
  });

  it('serves only when authorize answers true: anything else is a failure, never an admission', async () => {
    const { store, secret } = await storeWithArtifacts();
    for (const answer of ['false', 1, {}, undefined, null]) {
      const errors: unknown[] = [];
      const handler = createArtifactHandler(store, {
        authorize: (() => answer) as unknown as () => boolean,
        onError: (error) => errors.push(error),
      });
      const origin = await listen(handler);
      const response = await fetch(`${origin}/artifacts/${secret.id}`);
      expect(response.status).toBe(500);
      expect(await response.text()).not.toContain('secret');
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ code: 'E_INVALID_ARGUMENT' });
    }
  });
});
