import type { Step } from './results.js';

export function say(text = ''): void {
  process.stdout.write(`${text}\n`);
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A step's outcome: its result, or the error that broke it (the run goes on). */
export async function step<T>(run: () => Promise<T>): Promise<Step<T>> {
  try {
    return { status: 'done', result: await run() };
  } catch (error) {
    return { status: 'error', message: errorMessage(error) };
  }
}
