import { parentPort } from 'node:worker_threads';
import type { AnalysisRequest, AnalysisResponse } from './analyzer-protocol.js';
import { createLocalProvider } from './local-provider.js';

/**
 * A worker thread running the local analyzer: the wink model is loaded here, never on the server's
 * event loop, so a long analysis delays only other analyses. One job at a time (the pool sends the
 * next when this one answers).
 */
const provider = createLocalProvider();

async function answer(request: AnalysisRequest): Promise<AnalysisResponse> {
  try {
    const output =
      request.kind === 'summarizeComments'
        ? await provider.summarizeComments(request.input)
        : request.kind === 'generateSuggestions'
          ? await provider.generateSuggestions(request.input)
          : await provider.narrativeSummary(request.input);
    return { id: request.id, ok: true, output };
  } catch (error) {
    return { id: request.id, ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

parentPort?.on('message', (request: AnalysisRequest) => {
  void answer(request).then((response) => parentPort?.postMessage(response));
});
