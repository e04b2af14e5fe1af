// A native <dialog> shown modally while `open`: focus is trapped by the browser, Esc closes it.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

export function Modal({
  open,
  label,
  onClose,
  className,
  children,
}: {
  open: boolean;
  label: string;
  onClose: () => void;
  className?: string;
  children: ComponentChildren;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (d === null) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the backdrop click has Esc as its keyboard twin (native to <dialog>).
    <dialog
      ref={ref}
      aria-label={label}
      class={className}
      onClose={onClose}
      onClick={(e) => {
        // A click on the backdrop lands on the dialog itself.
        if (e.target === ref.current) onClose();
      }}
    >
      {open ? children : null}
    </dialog>
  );
}
