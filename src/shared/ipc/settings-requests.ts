/** The contract's settings requests (`settings.*`), spread into REQUESTS by contract.ts. */
import { z } from 'zod';
import {
  ATTENTION_THRESHOLD_KEYS,
  ATTENTION_THRESHOLD_RULES,
  thresholdRangeText,
  type AttentionThresholdKey,
} from '../attention';
import {
  CALIBRATION_TOLERANCE_MAX_DB,
  CALIBRATION_TOLERANCE_MIN_DB,
  REFRESH_CACHED_MAX_MINUTES,
  REFRESH_CACHED_MIN_MINUTES,
  SIC_TOLERANCE_MAX_DB,
  SIC_TOLERANCE_MIN_DB,
  type SettingsState,
} from '../operations';
import { noArgs, request } from './request-spec';

const REFRESH_CACHED_RANGE_TEXT = `Refresh cached data after a whole number of minutes from ${REFRESH_CACHED_MIN_MINUTES} to ${REFRESH_CACHED_MAX_MINUTES}.`;

const SIC_TOLERANCE_RANGE_TEXT = `The SIC tolerance must be between ${SIC_TOLERANCE_MIN_DB.toFixed(1)} dB and ${SIC_TOLERANCE_MAX_DB.toFixed(1)} dB.`;

/** Each attention threshold, with its bounds said in the message (shared/attention.ts). */
function attentionThresholdSchemas(): Record<AttentionThresholdKey, z.ZodOptional<z.ZodNumber>> {
  const schemas = {} as Record<AttentionThresholdKey, z.ZodOptional<z.ZodNumber>>;
  for (const key of ATTENTION_THRESHOLD_KEYS) {
    const rule = ATTENTION_THRESHOLD_RULES[key];
    const message = thresholdRangeText(key);
    const number = z.number({ error: message }).min(rule.min, message).max(rule.max, message);
    schemas[key] = (rule.integer ? number.int(message) : number).optional();
  }
  return schemas;
}

const settingsUpdateSchema = z
  .object({
    calibrationReferenceDb: z
      .union([z.literal(94), z.literal(114)], {
        error: 'The calibrator reference level must be 94 dB or 114 dB.',
      })
      .optional(),
    calibrationToleranceDb: z
      .number({ error: 'The calibration tolerance must be a number of decibels.' })
      .min(
        CALIBRATION_TOLERANCE_MIN_DB,
        `The calibration tolerance must be between ${CALIBRATION_TOLERANCE_MIN_DB.toFixed(1)} dB and ${CALIBRATION_TOLERANCE_MAX_DB.toFixed(1)} dB.`,
      )
      .max(
        CALIBRATION_TOLERANCE_MAX_DB,
        `The calibration tolerance must be between ${CALIBRATION_TOLERANCE_MIN_DB.toFixed(1)} dB and ${CALIBRATION_TOLERANCE_MAX_DB.toFixed(1)} dB.`,
      )
      .optional(),
    sicToleranceDb: z
      .number({ error: 'The SIC tolerance must be a number of decibels.' })
      .min(SIC_TOLERANCE_MIN_DB, SIC_TOLERANCE_RANGE_TEXT)
      .max(SIC_TOLERANCE_MAX_DB, SIC_TOLERANCE_RANGE_TEXT)
      .optional(),
    refreshCachedAfterMinutes: z
      .number({ error: 'The refresh age of cached data must be a number of minutes.' })
      .int(REFRESH_CACHED_RANGE_TEXT)
      .min(REFRESH_CACHED_MIN_MINUTES, REFRESH_CACHED_RANGE_TEXT)
      .max(REFRESH_CACHED_MAX_MINUTES, REFRESH_CACHED_RANGE_TEXT)
      .optional(),
    ...attentionThresholdSchemas(),
  })
  .strict();

export const SETTINGS_REQUESTS = {
  'settings.get': request<SettingsState>()(noArgs),
  /** Changes settings; any change of the calibration settings also confirms them. */
  'settings.update': request<SettingsState>()(settingsUpdateSchema),
  /** Confirms the calibration settings as they are (after saved settings could not be read). */
  'settings.confirm': request<SettingsState>()(noArgs),
};
