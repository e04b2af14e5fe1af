// The separator between the session list and the transcript (design brief "the list (about 360 px,
// resizable)"): dragged with the pointer or moved with the arrow keys, Home and End; the width is
// remembered in the browser's storage.
import { useRef } from 'preact/hooks';

export const listWidth = { min: 240, max: 720, initial: 360, step: 16 } as const;
const storageKey = 'agentlog.list-width';

export function storedListWidth(): number {
  try {
    const n = Number(localStorage.getItem(storageKey));
    return Number.isFinite(n) && n >= listWidth.min && n <= listWidth.max ? n : listWidth.initial;
  } catch {
    return listWidth.initial;
  }
}

export function clampWidth(n: number): number {
  return Math.round(Math.min(listWidth.max, Math.max(listWidth.min, n)));
}

function remember(n: number): void {
  try {
    localStorage.setItem(storageKey, String(n));
  } catch {
    // Not remembered; the width still applies to this page.
  }
}

export function PaneSplitter({ width, onWidth }: { width: number; onWidth: (n: number) => void }) {
  const drag = useRef<{ x: number; width: number } | null>(null);
  const set = (n: number): void => {
    const w = clampWidth(n);
    onWidth(w);
    remember(w);
  };
  return (
    <hr
      class="splitter"
      aria-orientation="vertical"
      aria-label="Resize the session list"
      aria-valuenow={width}
      aria-valuemin={listWidth.min}
      aria-valuemax={listWidth.max}
      tabIndex={0}
      onKeyDown={(e) => {
        const step = e.shiftKey ? listWidth.step * 4 : listWidth.step;
        const next =
          e.key === 'ArrowLeft'
            ? width - step
            : e.key === 'ArrowRight'
              ? width + step
              : e.key === 'Home'
                ? listWidth.min
                : e.key === 'End'
                  ? listWidth.max
                  : null;
        if (next === null) return;
        e.preventDefault();
        e.stopPropagation();
        set(next);
      }}
      onPointerDown={(e) => {
        drag.current = { x: e.clientX, width };
        (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
      }}
      onPointerMove={(e) => {
        if (drag.current !== null) onWidth(clampWidth(drag.current.width + e.clientX - drag.current.x));
      }}
      onPointerUp={(e) => {
        if (drag.current === null) return;
        set(drag.current.width + e.clientX - drag.current.x);
        drag.current = null;
      }}
      onDblClick={() => set(listWidth.initial)}
    />
  );
}
