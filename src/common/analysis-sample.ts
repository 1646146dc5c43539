import type { AnalysisSample } from './contract/ai.js';

const plural = (count: number, word: string) => `${count} ${count === 1 ? word : `${word}s`}`;

/**
 * The line an AI answer shows when it read a sample (the server bounds what one call reads):
 * 'Read 300 of 612 comments: each member's most-voted and most recent, members in turn.'
 */
export function describeSample(sample: AnalysisSample): string {
  const parts: string[] = [];
  if (sample.read < sample.of) parts.push(`Read ${sample.read} of ${plural(sample.of, 'comment')}: each member's most-voted and most recent, members in turn.`);
  if (sample.shortened > 0) parts.push(`Read only the beginning of ${plural(sample.shortened, 'long comment')}.`);
  return parts.join(' ');
}
