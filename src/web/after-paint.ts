// Work that should not compete with drawing the list waits for the frame that draws it.

/** A hidden tab draws no frames: past this, the work goes ahead without one. */
const noFrameMs = 100;

/** Resolves once the browser has drawn the next frame (a timer queued from inside it runs after), or after `noFrameMs`. */
export function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => {
    const fallback = setTimeout(resolve, noFrameMs);
    requestAnimationFrame(() => {
      clearTimeout(fallback);
      setTimeout(resolve, 0);
    });
  });
}
