/** The contract's site visit requests (`visits.*`), spread into REQUESTS by contract.ts. */
import { z } from 'zod';
import {
  CHECK_LABEL_MAX,
  CHECK_NOTE_MAX,
  CHECK_STATES,
  CHECKLIST_MAX_ITEMS,
  INSTRUMENT_KINDS,
  PHOTO_CAPTION_MAX,
  PHOTO_MAX_BYTES,
  VISIT_ENGINEER_MAX,
  VISIT_NOTES_MAX,
  type ChosenPhoto,
  type VisitDetail,
  type VisitInstrumentKind,
  type VisitList,
  type VisitSheetResult,
} from '../visits';
import { epochMsSchema } from './data-requests';
import { base64TextSchema, noArgs, request, serialSchema } from './request-spec';

const idSchema = (what: string) => z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, `That is not a ${what}.`);
const visitIdSchema = idSchema('visit of this account');
const byVisitId = z.object({ id: visitIdSchema }).strict();

const engineerSchema = z
  .string()
  .trim()
  .min(1, 'Name the engineer who made the visit.')
  .max(VISIT_ENGINEER_MAX, `Keep the engineer's name to ${VISIT_ENGINEER_MAX} characters or fewer.`);

const checkLabelSchema = z
  .string()
  .trim()
  .min(1, 'A checklist item needs a name.')
  .max(CHECK_LABEL_MAX, `Keep a checklist item to ${CHECK_LABEL_MAX} characters or fewer.`);

const checklistItemSchema = z
  .object({
    id: idSchema('checklist item'),
    serial: serialSchema,
    label: checkLabelSchema,
    state: z.enum(CHECK_STATES).nullable(),
    note: z.string().max(CHECK_NOTE_MAX, `Keep a checklist note to ${CHECK_NOTE_MAX} characters or fewer.`),
  })
  .strict();

/** A change to one item already on a visit's checklist: its answer, its note, or both. */
const checklistItemChangeSchema = z
  .object({
    id: idSchema('checklist item'),
    state: z.enum(CHECK_STATES).nullable().optional(),
    note: z
      .string()
      .max(CHECK_NOTE_MAX, `Keep a checklist note to ${CHECK_NOTE_MAX} characters or fewer.`)
      .optional(),
  })
  .strict();

const base64Schema = (maxBytes: number, what: string) =>
  base64TextSchema(Math.ceil(maxBytes / 3) * 4, {
    tooLarge: `The ${what} is larger than FieldDesk keeps.`,
    notBase64: `The ${what} is not base64 text.`,
  });

export const visitStartSchema = z
  .object({
    serials: z
      .array(serialSchema)
      .min(1, 'Choose at least one instrument for the visit.')
      .max(50, 'A visit covers at most 50 instruments.'),
    siteId: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, 'Unknown site.')
      .optional(),
    engineer: engineerSchema,
    arrivedAt: epochMsSchema.optional(),
  })
  .strict();

export const visitUpdateSchema = z
  .object({
    id: visitIdSchema,
    engineer: engineerSchema.optional(),
    arrivedAt: epochMsSchema.optional(),
    /** Null opens a finished visit again. */
    leftAt: epochMsSchema.nullable().optional(),
    notes: z
      .string()
      .max(
        VISIT_NOTES_MAX,
        `Keep the notes to ${VISIT_NOTES_MAX.toLocaleString('en-GB')} characters or fewer.`,
      )
      .optional(),
    checklist: z
      .array(checklistItemSchema)
      .max(CHECKLIST_MAX_ITEMS * 10, 'The checklist is too long.')
      .optional(),
    /**
     * Answers and notes of items on the checklist, each changing only what it names: a note saved
     * and the next item answered a moment later never undo each other.
     */
    items: z
      .array(checklistItemChangeSchema)
      .max(CHECKLIST_MAX_ITEMS * 10, 'The checklist is too long.')
      .optional(),
  })
  .strict()
  .refine((u) => u.arrivedAt === undefined || u.leftAt == null || u.arrivedAt <= u.leftAt, {
    message: 'The visit cannot end before it began.',
    path: ['leftAt'],
  });

const captionSchema = z
  .string()
  .max(PHOTO_CAPTION_MAX, `Keep a caption to ${PHOTO_CAPTION_MAX} characters or fewer.`);
/** Keep a reduced copy (REDUCED_EDGE_PX) of a larger picture instead of the camera's file. */
const reduceSchema = z.boolean({ error: 'Say whether to keep a reduced copy of the photo.' });

/** A photo's bytes, sent by the browser harness and by a photo dropped on the visit. */
export const photoAddSchema = z
  .object({
    visitId: visitIdSchema,
    fileName: z
      .string()
      .trim()
      .min(1, 'The photo has no file name.')
      .max(200, 'The photo’s file name is too long.'),
    caption: captionSchema,
    imageBase64: base64Schema(PHOTO_MAX_BYTES, 'photo'),
    reduce: reduceSchema,
  })
  .strict();

/** A photo chosen in the system's dialog (`visits.choosePhotos`), by the token it was given. */
export const chosenPhotoAddSchema = z
  .object({
    visitId: visitIdSchema,
    token: z.string().regex(/^[0-9a-f-]{36}$/, 'That is not a photo chosen in this window.'),
    caption: captionSchema,
    reduce: reduceSchema,
  })
  .strict();

const byPhoto = z.object({ visitId: visitIdSchema, photoId: idSchema('photo of this visit') }).strict();

export const checklistTemplateSchema = z
  .object({
    kind: z.enum(INSTRUMENT_KINDS, { error: 'Choose Noise, AirQuality or Vibration.' }),
    items: z
      .array(checkLabelSchema)
      .min(1, 'Keep at least one item in the checklist.')
      .max(CHECKLIST_MAX_ITEMS, `A checklist holds at most ${CHECKLIST_MAX_ITEMS} items.`),
  })
  .strict();

export type ChecklistTemplates = Record<VisitInstrumentKind, string[]>;

export const VISIT_REQUESTS = {
  /** The active account's visits, newest first; with a serial, only those that included it. */
  'visits.list': request<VisitList>()(z.object({ serial: serialSchema.optional() }).strict()),
  /** One visit with the actions run on its instruments while it was open. */
  'visits.get': request<VisitDetail>()(byVisitId),
  /** Starts a visit now (or at `arrivedAt`): the instruments' checklists from the templates. */
  'visits.start': request<VisitDetail>()(visitStartSchema),
  'visits.update': request<VisitDetail>()(visitUpdateSchema),
  /** Deletes a visit and its photos. */
  'visits.remove': request<{ id: string }>()(byVisitId),
  /** Copies a photo sent as bytes into the data folder, with the thumbnail the backend makes of it. */
  'visits.addPhoto': request<VisitDetail>()(photoAddSchema),
  /**
   * The system's dialog for photos (the desktop app): each chosen file named by a token, its path
   * kept in the main process; none when cancelled. `unavailable` where there is no such dialog.
   */
  'visits.choosePhotos': request<ChosenPhoto[]>()(noArgs),
  /** Copies a chosen photo (`visits.choosePhotos`) into the data folder, read there from its path. */
  'visits.addChosenPhoto': request<VisitDetail>()(chosenPhotoAddSchema),
  'visits.removePhoto': request<VisitDetail>()(byPhoto),
  'visits.setCaption': request<VisitDetail>()(byPhoto.extend({ caption: captionSchema })),
  /** A photo's thumbnail as a `data:` URL (the renderer shows nothing from disk itself). */
  'visits.thumbnail': request<string>()(byPhoto),
  /** A photo itself, full size, as a `data:` URL: the viewer shows it whole. */
  'visits.photo': request<string>()(byPhoto),
  /** Writes the visit sheet (a one-or-two page PDF) where the user chooses. */
  'visits.sheet': request<VisitSheetResult>()(byVisitId),
  /** The checklist templates per kind of instrument, and the last engineer named. */
  'visits.templates': request<{ templates: ChecklistTemplates; lastEngineer: string }>()(noArgs),
  'visits.setTemplate': request<{ templates: ChecklistTemplates; lastEngineer: string }>()(
    checklistTemplateSchema,
  ),
};
