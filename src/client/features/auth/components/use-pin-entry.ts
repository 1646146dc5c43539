import { useRef, useState } from 'react';

/**
 * The PIN a sign-in form asks for. Every variant starts empty, and a refused PIN is cleared and
 * focused so the member can type it again at once (`clearPin`, the calls' failure handler).
 */
export function usePinEntry() {
  const [pin, setPin] = useState('');
  const pinRef = useRef<HTMLInputElement>(null);
  const clearPin = () => {
    setPin('');
    pinRef.current?.focus();
  };
  return { pin, setPin, pinRef, clearPin };
}
