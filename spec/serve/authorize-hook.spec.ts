import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import {
  type ArtifactHandlerOptions,
  type ArtifactRequestTarget,
  ArtifactStore,
  createArtifactHandler,
  createLinkSigner,
} from 'spoolforge';
import { describe, expect, it } from 'vitest';
import { listen } from '../helpers/http-servers.js';
import { tempDirectory } from '../helpers/temp-files.js';

const key = 'a-link-signing-key-of-32-bytes!!';

/** A store with one artifact behind a handler; `targets` logs what `authorize` was asked. */
async function serve(
  authorize: (
    request: IncomingMessage,
    target: ArtifactRequestTarget,
  ) => boolean | Promise<boolean>,
  options: ArtifactHandlerOptions = {},
) {
  const store = await ArtifactStore.open(join(await tempDirectory(), 'store'));
  const record = await store.put('one line\n', { name: 'report 1' });
  const targets: ArtifactRequestTarget[] = [];
  const errors: unknown[] = [];
  const handler = createArtifactHandler(store, {
    authorize: (request, target) => {
      targets.push(target);
      return authorize(request, target);
    },
    onError: (error) => errors.push(error),
    ...options,
  });
  const origin = await listen(handler);
  return { record, targets, errors, handler, origin, base: `${origin}/artifacts` };
}

describe('createArtifactHandler: the authorize hook', () => {
  it('is asked for every request, with its route and id segment, before anything is looked up', async () => {
    const { record, targets, base } = await serve(
      async (request) => request.headers['x-team'] === 'build',
    );
    const team = { 'x-team': 'build' };
    expect((await fetch(`${base}/`, { headers: team })).status).toBe(200);
    expect((await fetch(`${base}/${record.id}`, { headers: team })).status).toBe(200);
    expect((await fetch(`${base}/report%201/view`, { headers: team })).status).toBe(200);
    expect((await fetch(`${base}/AAAAAAAAAAAAAAAAAAAAAA`, { headers: team })).status).toBe(404);
    expect((await fetch(`${base}/${record.id}/nothing`, { headers: team })).status).toBe(404);
    expect(targets).toEqual([
      { route: 'index' },
      { route: 'body', id: record.id },
      { route: 'view', id: 'report 1' },
      { route: 'body', id: 'AAAAAAAAAAAAAAAAAAAAAA' },
      { route: 'unknown' },
    ]);
  });

  it('answers false with 403, as JSON or as a page by Accept, the same for unknown artifacts', async () => {
    const { record, base } = await serve(() => false);
    const known = await fetch(`${base}/${record.id}`);
    const unknown = await fetch(`${base}/AAAAAAAAAAAAAAAAAAAAAA`);
    expect(known.status).toBe(403);
    const json = await known.json();
    expect(json).toEqual({
      error: {
        status: 403,
        message:
          'Forbidden: the link is unsigned, altered or expired, or the request is not authorised',
      },
    });
    expect(unknown.status).toBe(403);
    expect(await unknown.json()).toEqual(json);
    const page = await fetch(`${base}/${record.id}/view`, { headers: { Accept: 'text/html' } });
    expect(page.status).toBe(403);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const text = await page.text();
    expect(text).toContain('the request is not authorised');
    expect(text).not.toContain('href=');
  });

  it('turns a throw into a 500 reported to onError, or hands it to next', async () => {
    const failure = new Error('the session store is down');
    const { record, errors, handler, base } = await serve(() => {
      throw failure;
    });
    const response = await fetch(`${base}/${record.id}`);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: { status: 500, message: 'Internal error' } });
    expect(errors).toEqual([failure]);
    // As Express middleware, the error goes to next.
    const passed: unknown[] = [];
    const origin = await listen((request: IncomingMessage, response: ServerResponse) =>
      handler(request, response, (error) => {
        passed.push(error);
        response.writeHead(503).end('from next');
      }),
    );
    const viaNext = await fetch(`${origin}/artifacts/${record.id}`);
    expect(viaNext.status).toBe(503);
    expect(passed).toEqual([failure]);
  });

  it('runs after the signature check, and only for requests that pass it', async () => {
    const signer = createLinkSigner({ key });
    const { record, targets, base } = await serve(
      (request) => request.headers['x-team'] === 'build',
      { signedLinks: { signer } },
    );
    expect((await fetch(`${base}/${record.id}`, { headers: { 'x-team': 'build' } })).status).toBe(
      403,
    );
    expect(targets).toEqual([]);
    const signed = signer.sign(`${base}/${record.id}`);
    expect((await fetch(signed)).status).toBe(403);
    expect(targets).toEqual([{ route: 'body', id: record.id }]);
    const allowed = await fetch(signed, { headers: { 'x-team': 'build' } });
    expect(allowed.status).toBe(200);
    expect(await allowed.text()).toBe('one line\n');
  });
});
