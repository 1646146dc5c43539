import { useState, type ImgHTMLAttributes } from 'react';

interface ImageWithFallbackProps extends ImgHTMLAttributes<HTMLImageElement> {
  alt: string;
  /** Shown instead of the image when it fails to load, so a missing file never leaves a broken-image icon. */
  fallbackEmoji?: string;
}

export function ImageWithFallback({ fallbackEmoji = '🤖', alt, className, onError, ...props }: ImageWithFallbackProps) {
  const [failed, setFailed] = useState(false);
  if (failed) {
    return (
      <span role="img" aria-label={alt} className={className} data-fallback="emoji">
        <span className="flex h-full w-full items-center justify-center text-2xl leading-none">{fallbackEmoji}</span>
      </span>
    );
  }
  return (
    <img
      alt={alt}
      className={className}
      onError={(event) => {
        setFailed(true);
        onError?.(event);
      }}
      {...props}
    />
  );
}
