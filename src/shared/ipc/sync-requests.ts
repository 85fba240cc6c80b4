/** The contract's site-sync requests that carry choices: starting a sync and its saved profiles. */
import { z } from 'zod';
import { DATASETS, type SyncSnapshot } from '../data';
import { SYNC_TYPES, type SyncProfile } from '../sync-choices';
import {
  checkTimeRange,
  datasetSchema,
  isoPeriodSchema,
  noiseValueSchema,
  rangeFields,
} from './data-requests';
import { noArgs, request, serialSchema } from './request-spec';

const typeChoiceSchema = z
  .object({
    datasets: z.array(datasetSchema).max(DATASETS.length),
    values: z.array(noiseValueSchema).max(40),
    bands: z.array(z.enum(['Octave', 'Third'])).max(2),
    weightings: z.array(z.enum(['A', 'C', 'Z'])).max(3),
    periods: z.array(isoPeriodSchema.nullable()).max(8),
  })
  .strict();

export const syncChoicesSchema = z
  .object(
    Object.fromEntries(SYNC_TYPES.map((type) => [type, typeChoiceSchema])) as Record<
      (typeof SYNC_TYPES)[number],
      typeof typeChoiceSchema
    >,
  )
  .strict();

export const SYNC_PROFILE_NAME_MAX_LENGTH = 60;

export const syncProfileNameSchema = z
  .string()
  .trim()
  .min(1, 'Give the profile a name.')
  .max(SYNC_PROFILE_NAME_MAX_LENGTH, `Keep the name to ${SYNC_PROFILE_NAME_MAX_LENGTH} characters or fewer.`)
  .regex(/^[^\u0000-\u001f]+$/, 'The name cannot hold control characters.');

export const SYNC_REQUESTS = {
  'sync.start': request<SyncSnapshot>()(
    z
      .object({
        serials: z.array(serialSchema).min(1, 'Choose at least one instrument.').max(100),
        datasets: z.record(z.string(), z.array(datasetSchema).max(DATASETS.length)),
        choices: syncChoicesSchema.optional(),
        ...rangeFields,
      })
      .strict()
      .superRefine(checkTimeRange),
  ),
  /** The built-in profiles, then the user's, by name. */
  'sync.profiles': request<SyncProfile[]>()(noArgs),
  /** Saves (or replaces) a profile of the user's; a built-in name cannot be taken. */
  'sync.saveProfile': request<SyncProfile[]>()(
    z.object({ name: syncProfileNameSchema, choices: syncChoicesSchema }).strict(),
  ),
  'sync.deleteProfile': request<SyncProfile[]>()(z.object({ name: syncProfileNameSchema }).strict()),
};
