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
 * `cancel` event) and closes it otherwise; focus returns where it was when it closes.
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
        hooks.afterOpen?.();
      } else if (!open && element.open) {
        element.close();
      }
    },
    { immediate: true },
  );
}
