import { describe, expect, it } from 'vitest';
import { COMPONENTS, triageComments } from './fixtures/comments.js';
import { LOCAL_PROMPT_VERSION, createLocalProvider } from './local-provider.js';
import { loadReader } from './wink.js';

describe('createLocalProvider', () => {
  it('names itself and versions its analysis', () => {
    const provider = createLocalProvider();
    expect(provider.name).toBe('local');
    expect(provider.model).toMatch(/^wink-eng-lite-web-model/);
    expect(LOCAL_PROMPT_VERSION).toMatch(/^local-analyzer\/\d+$/);
    for (const kind of ['summary', 'suggestions', 'narrative'] as const) expect(provider.promptVersion(kind, 7)).toBe(LOCAL_PROMPT_VERSION);
  });

  it('loads the model once per process', async () => {
    const [a, b] = await Promise.all([loadReader(), loadReader()]);
    expect(a).toBe(b);
    expect(await loadReader()).toBe(a);
  });

  it('gives the same answers from two provider instances', async () => {
    const input = { ...COMPONENTS.triage, comments: triageComments };
    expect(await createLocalProvider().summarizeComments(input)).toEqual(await createLocalProvider().summarizeComments(input));
  });

  it('rejects an aborted call', async () => {
    const controller = new AbortController();
    controller.abort(new Error('client went away'));
    await expect(createLocalProvider().generateSuggestions({ comments: triageComments }, controller.signal)).rejects.toThrow('client went away');
  });
});
