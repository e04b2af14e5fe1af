// The session header's sharing line (issue 14): whether `agentlog sync` would send this session, at
// which level and through which allowed path, when a sync last put it on the hub, and buttons to
// allow its repository or take the opt-in back. The opt-in file is the same one `agentlog allow`
// and `agentlog deny` write.
import { useEffect, useState } from 'preact/hooks';
import type { SharingBody, SharingChangeBody } from '../server/sharing-types.js';
import { ApiError, getJson, sessionPath } from './api.js';
import { localDateTime } from './format.js';
import { visibleText } from './visible-text.js';

function post(route: 'allow' | 'deny', body: object): Promise<SharingChangeBody> {
  return getJson<SharingChangeBody>(`/api/sharing/${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

function describe(s: SharingBody): string {
  if (s.allowed) {
    const last = s.last_uploaded === null ? 'not uploaded yet' : `last uploaded ${localDateTime(s.last_uploaded)}`;
    return `Shared at ${s.detail ?? 'full'} detail (allowed by ${s.allowed_by ?? s.repo ?? '?'}) · ${last}`;
  }
  return `Not shared: ${s.reason ?? 'not opted in'}`;
}

export function SharingControl({ agent, id }: { agent: string; id: string }) {
  const [state, setState] = useState<SharingBody | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const load = (signal?: AbortSignal): Promise<void> =>
    getJson<SharingBody>(`${sessionPath(agent, id)}/sharing`, signal === undefined ? {} : { signal }).then(
      (s) => {
        setState(s);
        setError(null);
      },
      (e: unknown) => {
        if (e instanceof DOMException && e.name === 'AbortError') return;
        setError(e instanceof ApiError ? e.message : String(e));
      },
    );
  useEffect(() => {
    const ctl = new AbortController();
    setState(null);
    void load(ctl.signal);
    return () => ctl.abort();
  }, [agent, id]);

  const change = async (route: 'allow' | 'deny', path: string): Promise<void> => {
    setBusy(true);
    try {
      await post(route, route === 'allow' ? { path, detail: 'full' } : { path });
      await load();
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  const repo = state?.repo ?? null;
  // Deny takes back the allowed path that covers the repository (the one `agentlog status` lists).
  const denyPath = state?.allowed_by ?? null;
  return (
    <fieldset
      class="sharing"
      aria-label="Sharing"
      style={{ border: 0, padding: 0, margin: 0, display: 'flex', gap: '0.5em', alignItems: 'center' }}
    >
      <span role="status" class="sharing-state">
        {error !== null ? `Sharing state unavailable: ${visibleText(error)}` : state === null ? 'Sharing…' : visibleText(describe(state))}
      </span>
      {repo !== null && state?.allowed !== true ? (
        <button
          type="button"
          class="button"
          disabled={busy}
          title={`agentlog allow ${repo}`}
          aria-label="Allow this repository to sync"
          onClick={() => void change('allow', repo)}
        >
          Allow
        </button>
      ) : null}
      {denyPath !== null ? (
        <button
          type="button"
          class="button"
          disabled={busy}
          title={`agentlog deny ${denyPath}`}
          aria-label="Deny this repository from sync"
          onClick={() => void change('deny', denyPath)}
        >
          Deny
        </button>
      ) : null}
    </fieldset>
  );
}
