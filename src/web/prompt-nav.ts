// j/k: the next or previous user prompt in the transcript, relative to what is on screen.

/**
 * The prompt after (dir 1) or before (dir -1) the current one; `current` is the focused prompt, if any.
 * `fromTop` (just after `g`): the place is before the first prompt, wherever the scroll has got to.
 */
export function stepPrompt(container: HTMLElement, dir: 1 | -1, fromTop = false): HTMLElement | null {
  const prompts = Array.from(container.querySelectorAll<HTMLElement>('[data-prompt]'));
  if (prompts.length === 0) return null;
  const active = document.activeElement;
  // Just after `g` the place is before the first prompt: j lands on it, k stays on it.
  let index = fromTop ? -1 : prompts.indexOf(active as HTMLElement);
  if (!fromTop && index === -1) {
    // Nothing focused yet: start from the prompt nearest the top of the view.
    const top = container.getBoundingClientRect().top;
    const firstBelow = prompts.findIndex((p) => p.getBoundingClientRect().top >= top - 1);
    index = firstBelow === -1 ? prompts.length : firstBelow;
    if (dir === 1 && firstBelow !== -1 && prompts[firstBelow]!.getBoundingClientRect().top > top + 8) index -= 1;
  }
  const next = prompts[Math.max(0, Math.min(prompts.length - 1, index + dir))] ?? null;
  if (next !== null) {
    next.focus({ preventScroll: true });
    next.scrollIntoView({ block: 'start' });
  }
  return next;
}
