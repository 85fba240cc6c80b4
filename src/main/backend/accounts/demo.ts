/**
 * The demo service behind "Try the demo": started on first use (the Electron entry and the harness
 * inject how), restarted lazily for a saved demo account, stopped when the backend closes.
 */
import { FieldDeskError } from '../../../shared/errors';

export interface DemoService {
  baseUrl: string;
  apiKey: string;
  close(): Promise<void>;
}

export const DEMO_ACCOUNT_NAME = 'Demo fleet';

export interface DemoRunner {
  /** The running demo service, starting it if needed; a failed start can be tried again. */
  ensure(): Promise<DemoService>;
  close(): Promise<void>;
}

export function createDemoRunner(start: () => Promise<DemoService>): DemoRunner {
  let running: Promise<DemoService> | null = null;
  return {
    ensure() {
      running ??= start().catch((error: unknown) => {
        running = null; // let a later attempt try again
        throw new FieldDeskError(
          'internal',
          'The demo service could not start. Try again, or restart FieldDesk.',
          { cause: error },
        );
      });
      return running;
    },
    async close() {
      const service = running;
      running = null;
      if (service !== null) {
        await service.then(
          (started) => started.close(),
          () => undefined,
        );
      }
    },
  };
}
