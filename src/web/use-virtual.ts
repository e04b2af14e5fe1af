// A Preact hook over @tanstack/virtual-core: only the rows in view (plus overscan) are rendered.
// The size and key callbacks handed to the virtualizer stay the same functions for its whole life
// (it memoises its 10,000-row layout on them); they read the latest ones through a ref, and a change
// of rows is announced with `measure()` by the caller.
import { elementScroll, observeElementOffset, observeElementRect, Virtualizer } from '@tanstack/virtual-core';
import { useLayoutEffect, useReducer, useRef, useState } from 'preact/hooks';

export function useVirtual(
  count: number,
  size: (index: number) => number,
  scroller: () => HTMLElement | null,
  key: (index: number) => string,
) {
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const latest = useRef({ size, scroller, key });
  latest.current = { size, scroller, key };
  const [stable] = useState(() => ({
    getScrollElement: () => latest.current.scroller(),
    estimateSize: (i: number) => latest.current.size(i),
    getItemKey: (i: number) => latest.current.key(i),
    onChange: () => rerender(undefined),
  }));
  const options = { count, overscan: 8, scrollToFn: elementScroll, observeElementRect, observeElementOffset, ...stable };
  const [virtualizer] = useState(() => new Virtualizer<HTMLElement, HTMLElement>(options));
  virtualizer.setOptions(options);
  useLayoutEffect(() => virtualizer._didMount(), [virtualizer]);
  useLayoutEffect(() => {
    virtualizer._willUpdate();
  });
  return virtualizer;
}
