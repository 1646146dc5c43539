import type { AnalysisSample } from './contract/ai.js';

const plural = (count: number, word: string) => `${count} ${count === 1 ? word : `${word}s`}`;

/**
 * The line an AI answer shows when it read a sample (the server bounds what one call reads):
 * 'Read the 300 most-voted and most recent of 612 comments.'
 */
export function describeSample(sample: AnalysisSample): string {
  const parts: string[] = [];
  if (sample.read < sample.of) parts.push(`Read the ${sample.read} most-voted and most recent of ${plural(sample.of, 'comment')}.`);
  if (sample.shortened > 0) parts.push(`Read only the beginning of ${plural(sample.shortened, 'long comment')}.`);
  return parts.join(' ');
}
