/**
 * Text on a diagram box: white where white reaches WCAG AA (4.5:1) on the box colour, otherwise
 * the content's dark ink. The content picks the colours; this keeps any future colour readable.
 */
const DARK_INK = '#111827';

function channel(value: number): number {
  const srgb = value / 255;
  return srgb <= 0.03928 ? srgb / 12.92 : ((srgb + 0.055) / 1.055) ** 2.4;
}

export function relativeLuminance(hex: string): number {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (match === null) return 0;
  const [, r = '00', g = '00', b = '00'] = match;
  return 0.2126 * channel(parseInt(r, 16)) + 0.7152 * channel(parseInt(g, 16)) + 0.0722 * channel(parseInt(b, 16));
}

export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x);
  return ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05);
}

export function boxInk(background: string): { text: string; onDark: boolean } {
  return contrastRatio(background, '#ffffff') >= 4.5 ? { text: '#ffffff', onDark: true } : { text: DARK_INK, onDark: false };
}
