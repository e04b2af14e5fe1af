// Renames a session inline: a button that turns into a text field; Enter saves, Esc cancels.
import { useState } from 'preact/hooks';
import { ApiError, rename } from './api.js';

export function RenameControl({
  agent,
  id,
  current,
  onRenamed,
}: {
  agent: string;
  id: string;
  current: string | null;
  onRenamed: (name: string) => void;
}) {
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(current ?? '');
  const [error, setError] = useState<string | null>(null);
  if (!editing)
    return (
      <button
        type="button"
        class="button"
        onClick={() => {
          setValue(current ?? '');
          setError(null);
          setEditing(true);
        }}
      >
        Rename
      </button>
    );
  const save = async (): Promise<void> => {
    const name = value.trim();
    if (name === '') return;
    try {
      const body = await rename(agent, id, name);
      onRenamed(body.name);
      setEditing(false);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    }
  };
  return (
    <form
      class="rename"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <input
        aria-label="Session name"
        value={value}
        maxLength={200}
        ref={(el) => el?.focus()}
        onInput={(e) => setValue((e.target as HTMLInputElement).value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            setEditing(false);
          }
        }}
      />{' '}
      <button type="submit" class="button">
        Save
      </button>{' '}
      <button type="button" class="button" onClick={() => setEditing(false)}>
        Cancel
      </button>
      {error !== null ? <span role="alert"> {error}</span> : null}
    </form>
  );
}
