/**
 * A worker thread running the local analyzer: the wink model is loaded here, never on the server's
 * event loop, so a long analysis delays only other analyses. One job at a time (the pool sends the
 * next when this one answers).
 */
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { AnalysisCache } from './analysis.js';
import type { AnalysisRequest, AnalysisResponse } from './analyzer-protocol.js';
import { createLocalEvidence, createLocalProvider } from './local-provider.js';

/**
 * Texts whose analyses this worker keeps (~3 KB each, ~12 MiB at most): a new comment then costs
 * its component's summary the reading of one text, not of all of them. Enough for every comment
 * of a busy review; a larger component still analyses, only without the saving.
 */
const CACHED_ANALYSES = 4_000;
/**
 * And at most this many characters of text, since an analysis grows with its text (~30 bytes a
 * character measured on long comments, so ~24 MiB): 4,000 comments of 2,000 characters would not
 * fit the worker's heap. It holds one call's full input (ANALYSIS_BOUNDS.charsPerCall) and more.
 */
const CACHED_CHARS = 800_000;
const cache = new AnalysisCache(CACHED_ANALYSES, CACHED_CHARS);
const provider = createLocalProvider({ cache });
const evidence = createLocalEvidence({ cache });

/**
 * When both cores are busy, requests on the event loop go first: on Linux a nice value belongs to
 * the thread, so this lowers the analysis alone (elsewhere it would lower the whole server).
 */
const ANALYSIS_NICE = 5;
if (process.platform === 'linux') {
  try {
    setPriority(ANALYSIS_NICE);
  } catch {
    // Not permitted here: the analysis runs at the server's priority.
  }
}

function run(request: AnalysisRequest): Promise<unknown> {
  switch (request.kind) {
    case 'summarizeComments':
      return provider.summarizeComments(request.input);
    case 'generateSuggestions':
      return provider.generateSuggestions(request.input);
    case 'narrativeSummary':
      return provider.narrativeSummary(request.input);
    case 'summaryEvidence':
      return evidence.summary(request.input);
    case 'suggestionsEvidence':
      return evidence.suggestions(request.input);
    case 'narrativeEvidence':
      return evidence.narrative(request.input);
  }
}

async function answer(request: AnalysisRequest): Promise<AnalysisResponse> {
  try {
    const output = await run(request);
    return { id: request.id, ok: true, output };
  } catch (error) {
    return { id: request.id, ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

parentPort?.on('message', (request: AnalysisRequest) => {
  void answer(request).then((response) => parentPort?.postMessage(response));
});
