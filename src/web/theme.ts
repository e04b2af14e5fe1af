// Light and dark: the system's preference unless the person picked one with the toggle (remembered).
export type Theme = 'light' | 'dark';

const storageKey = 'agentlog.theme';

export function storedTheme(): Theme | null {
  try {
    const t = localStorage.getItem(storageKey);
    return t === 'light' || t === 'dark' ? t : null;
  } catch {
    return null;
  }
}

export function effectiveTheme(): Theme {
  return storedTheme() ?? (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light');
}

export function applyTheme(theme: Theme | null): void {
  if (theme === null) delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
  try {
    if (theme === null) localStorage.removeItem(storageKey);
    else localStorage.setItem(storageKey, theme);
  } catch {
    // Not remembered; the toggle still works for this page.
  }
}
