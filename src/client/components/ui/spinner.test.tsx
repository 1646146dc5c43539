import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import indexHtml from '../../../../index.html?raw';
import { LoadingScreen } from './spinner';

describe('the loading screen', () => {
  test("is what index.html paints before the script has run, so React's first render replaces it with the same screen", () => {
    const root = /<div id="root">(.*?)<\/div>\n/.exec(indexHtml)?.[1];
    expect(root).toBe(renderToStaticMarkup(<LoadingScreen />));
  });
});
