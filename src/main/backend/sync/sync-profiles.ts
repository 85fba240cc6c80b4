/**
 * The user's site-sync profiles in `<dataDir>/sync-profiles.json` (a JSON file store, see
 * core/json-file-store.ts), after the built-in ones ("Noise survey", "Construction vibration",
 * "Air quality"). A file that cannot be used is moved aside and only the built-in profiles remain,
 * with a warning; a saved profile that cannot be read is left out on its own, so one bad entry does
 * not lose the others.
 */
import { z } from 'zod';
import { FieldDeskError } from '../../../shared/errors';
import { syncChoicesSchema } from '../../../shared/ipc/sync-requests';
import { BUILT_IN_PROFILES, type SyncChoices, type SyncProfile } from '../../../shared/sync-choices';
import { openJsonFile } from '../core/json-file-store';
import type { Logger } from '../core/log';

export const SYNC_PROFILES_FILE_NAME = 'sync-profiles.json';
const FILE_VERSION = 1;
/** More than anyone keeps; a bound so a damaged file cannot fill the dialog. */
export const MAX_SAVED_PROFILES = 50;

const fileSchema = z.object({
  // Each profile is checked on its own below.
  profiles: z.array(z.unknown()),
});

const savedProfileSchema = z.object({ name: z.string().trim().min(1).max(60), choices: syncChoicesSchema });

export interface SyncProfileStore {
  readonly warning: string | null;
  /** Built-in profiles first, then the user's in the order saved. */
  list(): SyncProfile[];
  save(name: string, choices: SyncChoices): Promise<SyncProfile[]>;
  remove(name: string): Promise<SyncProfile[]>;
  flush(): Promise<void>;
}

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

export async function openSyncProfileStore(
  dataDir: string,
  now: () => number = Date.now,
  log?: Logger,
): Promise<SyncProfileStore> {
  const file = await openJsonFile({
    dataDir,
    fileName: SYNC_PROFILES_FILE_NAME,
    version: FILE_VERSION,
    schema: fileSchema,
    describe: { subject: 'Your site-sync profiles', fallback: 'so only the built-in profiles are offered' },
    now,
    ...(log === undefined ? {} : { log }),
  });
  let saved: SyncProfile[] = [];
  let unreadable = 0;
  for (const entry of file.loaded?.profiles ?? []) {
    const parsed = savedProfileSchema.safeParse(entry);
    if (parsed.success && !BUILT_IN_PROFILES.some((p) => sameName(p.name, parsed.data.name)))
      saved.push({ name: parsed.data.name, builtIn: false, choices: parsed.data.choices });
    else unreadable++;
  }
  const warning =
    file.warning ??
    (unreadable === 0
      ? null
      : `${unreadable === 1 ? 'One saved site-sync profile' : `${unreadable} saved site-sync profiles`} could not be read and ${unreadable === 1 ? 'was' : 'were'} left out.`);
  const list = () => [...BUILT_IN_PROFILES, ...saved.map((p) => ({ ...p }))];
  /** Writes the profiles as they will be (worked out in turn), and only then keeps them. */
  const commit = (next: () => SyncProfile[]) =>
    file.change(() => {
      const profiles = next();
      return {
        content: { profiles: profiles.map(({ name, choices }) => ({ name, choices })) },
        apply: () => {
          saved = profiles;
          return list();
        },
      };
    });

  return {
    warning,
    list,
    save(name, choices) {
      const trimmed = name.trim();
      if (BUILT_IN_PROFILES.some((p) => sameName(p.name, trimmed)))
        throw new FieldDeskError(
          'invalidInput',
          `“${trimmed}” is a built-in profile and cannot be changed. Save yours under another name.`,
          { field: 'name' },
        );
      return commit(() => {
        const at = saved.findIndex((p) => sameName(p.name, trimmed));
        if (at < 0 && saved.length >= MAX_SAVED_PROFILES)
          throw new FieldDeskError(
            'invalidInput',
            `FieldDesk keeps up to ${MAX_SAVED_PROFILES} profiles of your own. Delete one first.`,
            { field: 'name' },
          );
        const profile: SyncProfile = { name: trimmed, builtIn: false, choices };
        return at < 0 ? [...saved, profile] : saved.map((p, i) => (i === at ? profile : p));
      });
    },
    remove(name) {
      return commit(() => {
        const at = saved.findIndex((p) => sameName(p.name, name));
        if (at < 0)
          throw new FieldDeskError(
            'invalidInput',
            BUILT_IN_PROFILES.some((p) => sameName(p.name, name))
              ? `“${name.trim()}” is a built-in profile and cannot be deleted.`
              : `There is no saved profile named “${name.trim()}”.`,
            { field: 'name' },
          );
        return saved.filter((_, i) => i !== at);
      });
    },
    flush: () => file.flush(),
  };
}
