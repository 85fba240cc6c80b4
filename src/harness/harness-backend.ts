/**
 * The backend the harness drives: the same one the Electron app builds, with the in-app demo
 * service ("Try the demo") started on loopback with the harness's time scale and its actions held
 * on request, and the desktop notifications the app would have shown kept for tests to read (the
 * browser has no desktop).
 */
import { createBackend, type Backend } from '../main/backend/index';
import { startDemoService, type DemoActionControl, type RunningDemoService } from '../simulator/index';
import { createBackgroundNotifier, type Notice } from '../main/notifications';
import { version } from '../../package.json';

export interface HarnessBackendOptions {
  dataDir: string;
  /** The harness's keychain, its own entry (never the app's keys). */
  vault: Parameters<typeof createBackend>[0]['vault'];
  serviceTimeoutMs: number | undefined;
  /** Multiplies every simulated duration of the demo service (checked by the caller). */
  timeScale: number | undefined;
  /** Hold Calibrations and SICs until `demoActions.release()`. */
  holdActions: boolean;
}

export interface HarnessBackend {
  backend: Backend;
  /** The in-app demo service's actions (a no-op until the demo has started). */
  demoActions: DemoActionControl;
  /** The notifications the app would have shown, oldest first. */
  notices: Notice[];
  /** Whether the app's window counts as focused, as the notices ask (default true). */
  setWindowFocused(focused: boolean): void;
  /** Stops keeping notifications. */
  unsubscribeNotices(): void;
}

export async function startHarnessBackend(options: HarnessBackendOptions): Promise<HarnessBackend> {
  const { timeScale } = options;
  let demoService: RunningDemoService | null = null;
  let holdActions = options.holdActions;
  const demoActions: DemoActionControl = {
    hold(on) {
      holdActions = on;
      demoService?.actions.hold(on);
    },
    held: () => demoService?.actions.held() ?? [],
    release: (serial) => demoService?.actions.release(serial) ?? 0,
  };

  const backend = await createBackend({
    dataDir: options.dataDir,
    vault: options.vault,
    appInfo: { version, shell: 'harness' },
    ...(options.serviceTimeoutMs === undefined
      ? {}
      : { clientOptions: { timeoutMs: options.serviceTimeoutMs } }),
    startDemo: async () => {
      const service = await startDemoService({
        port: 0,
        holdActions,
        // The harness drives tests and development: webhooks may point at a receiver on this
        // computer, and the demo never posts anywhere else (our build machines have no network).
        allowLoopbackWebhooks: true,
        webhookDelivery: 'loopbackOnly',
        ...(timeScale === undefined ? {} : { timeScale }),
      });
      if (service.defaultKey === null) {
        await service.close();
        throw new Error('The demo service started without a default key.');
      }
      demoService = service;
      return { baseUrl: service.baseUrl, apiKey: service.defaultKey, close: service.close };
    },
  });

  // The same rules as the app's (src/main/index.ts), with a focus the test sets instead of a window's.
  const notices: Notice[] = [];
  let windowFocused = true;
  const unsubscribeNotices = backend.subscribe(
    createBackgroundNotifier(
      () => windowFocused,
      (notice) => notices.push(notice),
    ),
  );
  return {
    backend,
    demoActions,
    notices,
    setWindowFocused(focused) {
      windowFocused = focused;
    },
    unsubscribeNotices,
  };
}
