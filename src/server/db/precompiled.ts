import type { CompiledQuery } from 'kysely';

/**
 * A query built and compiled once and then run with new values: building and compiling a Kysely
 * query costs about as much as running a small indexed SQLite read, which matters on the session
 * lookup every signed-in request makes (ADR 0008). The query is compiled with unique placeholder
 * values; each run swaps them for the real ones by position.
 */
export function precompile<O, K extends string>(compiled: CompiledQuery<O>, placeholders: Readonly<Record<K, unknown>>) {
  const keys = Object.keys(placeholders) as K[];
  const slots = compiled.parameters.map((parameter) => keys.find((key) => Object.is(placeholders[key], parameter)));
  for (const key of keys) {
    const uses = slots.filter((slot) => slot === key).length;
    if (uses !== 1) throw new Error(`precompile: placeholder ${key} appears ${uses} times in the query, not once`);
  }
  return (values: Readonly<Record<K, unknown>>): CompiledQuery<O> => ({
    ...compiled,
    parameters: compiled.parameters.map((parameter, index) => {
      const slot = slots[index];
      return slot === undefined ? parameter : values[slot];
    }),
  });
}
