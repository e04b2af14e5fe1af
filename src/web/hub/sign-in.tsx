// The hub's sign-in: a person pastes the token `agentlog hub user add` printed; the hub answers with
// an HttpOnly session cookie, so the token is never kept by the page.
import { useState } from 'preact/hooks';
import type { SessionBody } from '../../hub/api-types.js';
import { HubError, signIn } from './hub-api.js';

export function SignIn({ onSignedIn, notice }: { onSignedIn: (who: SessionBody) => void; notice: string | null }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(notice);
  const [busy, setBusy] = useState(false);
  return (
    <main class="hub-signin">
      <form
        aria-label="Sign in"
        onSubmit={(e) => {
          e.preventDefault();
          setBusy(true);
          setError(null);
          signIn(token.trim()).then(
            (who) => {
              setToken('');
              onSignedIn(who);
            },
            (err: unknown) => {
              setBusy(false);
              setError(err instanceof HubError && err.status === 401 ? 'That token is not valid (or was revoked).' : String(err));
            },
          );
        }}
      >
        <h1>agentlog hub</h1>
        <label>
          Token
          <input
            type="password"
            autoComplete="off"
            spellcheck={false}
            value={token}
            onInput={(e) => setToken((e.target as HTMLInputElement).value)}
            required
          />
        </label>
        <p class="muted">The token `agentlog hub user add` printed for you.</p>
        <button type="submit" class="button" disabled={busy || token.trim() === ''}>
          Sign in
        </button>
        {error !== null ? (
          <p class="notice" role="alert">
            {error}
          </p>
        ) : null}
      </form>
    </main>
  );
}
