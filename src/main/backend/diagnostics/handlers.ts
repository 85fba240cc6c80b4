/**
 * Diagnostics (`diagnostics.*`): "Save diagnostics…" writes the zip of diagnostics.ts where the user
 * chooses (the app's save dialog; the data folder's `exports` without one); `diagnostics.damagedRecords`
 * answers how many stored records were found damaged and left out (core/damaged-rows.ts).
 */
import { dirname } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { FieldDeskError } from '../../../shared/errors';
import type { AppInfo } from '../../../shared/ipc/contract';
import type { AccountState } from '../accounts/account-state';
import type { KeyVault } from '../accounts/vault';
import { diskFailure } from '../core/disk-errors';
import type { ChooseExportPath } from '../core/export-path';
import type { DamagedRows } from '../core/damaged-rows';
import type { HandlersOf } from '../core/handler-types';
import type { Logger } from '../core/log';
import type { SecretRegistry } from '../core/secrets';
import { buildDiagnostics } from './diagnostics';

export interface DiagnosticsDeps {
  dataDir: string;
  appInfo: AppInfo;
  accounts: AccountState;
  vault: KeyVault;
  secrets: SecretRegistry;
  log: Logger;
  /** The stored rows found damaged this session, counted for the answer and the zip. */
  damaged: DamagedRows;
  chooseExportPath: ChooseExportPath;
  now: () => number;
}

/** "FieldDesk diagnostics 2026-11-23T0900Z.zip". */
const fileName = (now: number) =>
  `FieldDesk diagnostics ${new Date(now).toISOString().slice(0, 16).replace(/:/g, '')}Z.zip`;

export function diagnosticsHandlers(deps: DiagnosticsDeps): HandlersOf<'diagnostics'> {
  const { accounts, secrets, log, damaged } = deps;

  /**
   * Every saved key into the redactor, including those not used this session: the zip is redacted
   * with all of them, not only with those the log was redacted with when it was written.
   */
  async function learnSavedKeys(): Promise<void> {
    for (const account of accounts.store.list()) {
      if (account.kind === 'demo') continue;
      try {
        const held = await deps.vault.get(account.id);
        if (held !== null) secrets.add(held.key, 'API key');
      } catch (error) {
        // A key the keychain cannot give now was not used now either; the log was redacted of
        // every key it met when each line was written. Said in the log, and the zip goes on.
        log.warn('A saved key could not be read to redact the diagnostics', { error });
      }
    }
  }

  return {
    'diagnostics.save': async () => {
      const now = deps.now();
      const path = await deps.chooseExportPath(fileName(now), 'zip').catch((error: unknown) => {
        // Without a dialog the exports folder is made first, and the disk may refuse it.
        const folder = (error as NodeJS.ErrnoException).path ?? 'the exports folder';
        throw diskFailure(error, { folder, what: 'the diagnostics' }) ?? error;
      });
      if (path === null) return { saved: false };
      await learnSavedKeys();
      log.info('Saving diagnostics', { shell: deps.appInfo.shell, version: deps.appInfo.version });
      await log.flush();
      const zip = await buildDiagnostics({
        dataDir: deps.dataDir,
        appInfo: deps.appInfo,
        accounts: await accounts.get(),
        redact: secrets.redact,
        now,
        damaged: damaged.counts(),
      });
      try {
        await writeFileAtomic(path, Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength), { mode: 0o600 });
      } catch (error) {
        throw (
          diskFailure(error, { folder: dirname(path), what: 'the diagnostics' }) ??
          new FieldDeskError('internal', `FieldDesk could not write the diagnostics to ${path}.`, {
            cause: error,
          })
        );
      }
      return { saved: true, path, bytes: zip.byteLength };
    },
    'diagnostics.damagedRecords': async () => damaged.counts(),
  };
}
