import { startTransition, useEffect, useState } from 'react';

/**
 * False on the component's first render, true once the page has painted the frame after it
 * (the next animation frame's callback, then a task: the paint comes between them). For what
 * the first frame does not show: rendered after it, it does not hold it back.
 */
export function useAfterPaint(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    if (painted) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      // A transition: React renders what follows in slices, yielding to the browser and to
      // urgent updates (an answer's figures) instead of holding the main thread until done.
      timer = setTimeout(() => startTransition(() => setPainted(true)));
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [painted]);
  return painted;
}
