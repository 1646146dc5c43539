/**
 * An export of the build (`file` is relative to dist/), not of the TypeScript sources: the bench
 * measures what `npm start` runs. The caller names the type from the sources the build was made
 * from, so type-checking does not need dist/ to exist.
 */
export async function builtExport<T>(file: string, name: string): Promise<T> {
  const url = new URL(`../../dist/${file}`, import.meta.url);
  const loaded: unknown = await import(url.href);
  const value: unknown = typeof loaded === 'object' && loaded !== null ? Reflect.get(loaded, name) : undefined;
  if (value === undefined) throw new Error(`${url.pathname} does not export ${name}; run \`npm run build\` first`);
  return value as T;
}
