/** The one way a modal `<dialog>` follows an `open` prop (ConfirmDialog, calibration, site sync). */
import { nextTick, watch, type Ref } from 'vue';

export interface ModalDialogHooks {
  /** Runs as the dialog is asked to open, before it shows (it waits for a promise). */
  beforeOpen?: () => void | Promise<void>;
  /** Runs once it shows: where focus goes. */
  afterOpen?: () => void;
}

/**
 * Shows `dialog` as a native modal while `isOpen()` holds (focus kept inside, Esc raises its
 * `cancel` event) and closes it otherwise; focus returns where it was when it closes. Every dialog
 * opens at its start — its title and first step in view on a 768 px screen — with focus on its
 * first choice (a checked radio, else the first field or radio) unless `afterOpen` puts it
 * elsewhere: never on a button that starts or deletes something, where a stray Enter would act.
 */
export function useModalDialog(
  dialog: Ref<HTMLDialogElement | null>,
  isOpen: () => boolean,
  hooks: ModalDialogHooks = {},
): void {
  watch(
    isOpen,
    async (open) => {
      if (open) await hooks.beforeOpen?.();
      await nextTick();
      const element = dialog.value;
      if (!element) return;
      if (open && !element.open) {
        element.showModal();
        if (hooks.afterOpen) hooks.afterOpen();
        else firstChoice(element)?.focus({ preventScroll: true });
        // Focus may have scrolled it: the start is what is read first.
        element.scrollTop = 0;
        for (const body of element.querySelectorAll<HTMLElement>('.dialog-body')) body.scrollTop = 0;
      } else if (!open && element.open) {
        element.close();
      }
    },
    { immediate: true },
  );
}

/** A dialog's first choice: the checked radio, else its first field or radio; null when none. */
export function firstChoice(root: ParentNode): HTMLElement | null {
  return (
    root.querySelector<HTMLElement>('input[type="radio"]:checked:not(:disabled)') ??
    root.querySelector<HTMLElement>(
      'input:not([type="hidden"]):not(:disabled), select:not(:disabled), textarea:not(:disabled)',
    )
  );
}
