// A part of the page kept out of the first script (the transcript, the usage chart, the palette, the
// raw-log search): its chunk is fetched on first use or when `preload()` warms it after the list's
// first paint, so the list draws after loading only what it needs. A chunk that fails to load says so
// in place, with a retry, instead of leaving the pane blank.
import type { ComponentChildren, ComponentType, JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';

export interface LazyPart<P> {
  /** Renders the part once its chunk is here, `fallback` until then, an alert if it could not load. */
  (props: P & { fallback?: ComponentChildren }): JSX.Element | null;
  /** Starts fetching the chunk (once); resolves when it is ready or failed. */
  preload: () => Promise<void>;
}

type Loaded<P> = { status: 'ready'; part: ComponentType<P> } | { status: 'failed'; message: string };

/**
 * `name` says what is missing in the alert ("the transcript"); `load` is the dynamic import, e.g.
 * `lazyPart('the transcript', () => import('./transcript.js').then((m) => m.Transcript))`.
 */
export function lazyPart<P extends object>(name: string, load: () => Promise<ComponentType<P>>): LazyPart<P> {
  let loaded: Loaded<P> | null = null;
  let pending: Promise<void> | null = null;
  const listeners = new Set<() => void>();
  const preload = (): Promise<void> => {
    pending ??= load().then(
      (part) => {
        loaded = { status: 'ready', part };
      },
      (e: unknown) => {
        loaded = { status: 'failed', message: e instanceof Error ? e.message : String(e) };
      },
    );
    return pending.then(() => {
      for (const l of listeners) l();
    });
  };
  const retry = (): void => {
    pending = null;
    loaded = null;
    for (const l of listeners) l();
    void preload();
  };

  function Part(props: P & { fallback?: ComponentChildren }): JSX.Element | null {
    const [, setTick] = useState(0);
    useEffect(() => {
      const l = (): void => setTick((t) => t + 1);
      listeners.add(l);
      if (loaded === null) void preload();
      return () => {
        listeners.delete(l);
      };
    }, []);
    const now = loaded as Loaded<P> | null;
    if (now === null) return <>{props.fallback ?? null}</>;
    if (now.status === 'failed')
      return (
        <div class="lazy-failed" role="alert">
          Could not load {name} ({now.message}). Is agentlog serve still running?{' '}
          <button type="button" class="link-button" onClick={retry}>
            Retry
          </button>
        </div>
      );
    const { fallback: _fallback, ...rest } = props;
    const Inner = now.part;
    return <Inner {...(rest as P)} />;
  }
  return Object.assign(Part, { preload });
}
