/**
 * features/visits — visits.*: the active account's site visits (the engineer's own record, kept in
 * records.db and worked on offline), the visit open on screen, its photos' thumbnails, and the
 * checklist templates per kind of instrument.
 */
import { defineStore } from 'pinia';
import { ref, shallowRef } from 'vue';
import { useApi } from '../../api-injection';
import type { RequestArg } from '../../../../shared/ipc/contract';
import type { ChecklistTemplates } from '../../../../shared/ipc/visit-requests';
import {
  PHOTO_MAX_BYTES,
  photoTooLargeText,
  type ChosenPhoto,
  type VisitDetail,
  type VisitInstrumentKind,
  type VisitList,
} from '../../../../shared/visits';
import { fileBase64 } from '../../ui/file-base64';
import { FieldDeskError } from '../../../../shared/errors';

export const useVisitsStore = defineStore('visits', () => {
  const api = useApi();
  /** Visits listed per instrument serial ('' for the whole account). */
  const lists = shallowRef<ReadonlyMap<string, VisitList>>(new Map());
  const current = shallowRef<VisitDetail | null>(null);
  /** Thumbnails as `data:` URLs by photo id, read once. */
  const thumbnails = shallowRef<ReadonlyMap<string, string>>(new Map());
  const templates = shallowRef<ChecklistTemplates | null>(null);
  const lastEngineer = ref('');

  async function loadList(serial?: string): Promise<VisitList> {
    const list = await api.visits.list(serial === undefined ? {} : { serial });
    lists.value = new Map(lists.value).set(serial ?? '', list);
    return list;
  }

  function show(detail: VisitDetail): VisitDetail {
    current.value = detail;
    return detail;
  }

  async function open(id: string): Promise<VisitDetail> {
    if (current.value?.visit.id !== id) current.value = null;
    return show(await api.visits.get({ id }));
  }

  async function loadTemplates(): Promise<void> {
    const answer = await api.visits.templates();
    templates.value = answer.templates;
    lastEngineer.value = answer.lastEngineer;
  }

  async function start(form: RequestArg<'visits.start'>): Promise<VisitDetail> {
    const detail = show(await api.visits.start(form));
    lastEngineer.value = form.engineer;
    return detail;
  }

  async function update(change: RequestArg<'visits.update'>): Promise<VisitDetail> {
    const detail = show(await api.visits.update(change));
    if (change.engineer !== undefined) lastEngineer.value = change.engineer;
    return detail;
  }

  async function remove(id: string): Promise<void> {
    await api.visits.remove({ id });
    if (current.value?.visit.id === id) current.value = null;
  }

  /**
   * Copies a photo's bytes into the visit (the browser harness, and a photo dropped on the visit):
   * the backend checks it, makes its thumbnail and, with `reduce`, a reduced copy. `onStage` hears
   * when the file is read and goes to be checked and kept.
   */
  async function addPhoto(
    visitId: string,
    file: File,
    options: { reduce: boolean; onStage?: (stage: 'reading' | 'keeping') => void } = { reduce: false },
  ): Promise<VisitDetail> {
    // Said before reading a file that could not be kept anyway (a video dropped by mistake).
    if (file.size > PHOTO_MAX_BYTES) throw new FieldDeskError('invalidInput', photoTooLargeText(file.name));
    options.onStage?.('reading');
    const imageBase64 = await fileBase64(file);
    options.onStage?.('keeping');
    return show(
      await api.visits.addPhoto({
        visitId,
        fileName: file.name,
        caption: '',
        imageBase64,
        reduce: options.reduce,
      }),
    );
  }

  /** The system's dialog for photos (the desktop app): the files chosen, none when cancelled. */
  function choosePhotos(): Promise<ChosenPhoto[]> {
    return api.visits.choosePhotos();
  }

  /** Copies a photo chosen in the system's dialog into the visit: the backend reads it from its path. */
  async function addChosenPhoto(visitId: string, photo: ChosenPhoto, reduce: boolean): Promise<VisitDetail> {
    return show(await api.visits.addChosenPhoto({ visitId, token: photo.token, caption: '', reduce }));
  }

  async function removePhoto(visitId: string, photoId: string): Promise<void> {
    show(await api.visits.removePhoto({ visitId, photoId }));
  }

  async function setCaption(visitId: string, photoId: string, caption: string): Promise<void> {
    show(await api.visits.setCaption({ visitId, photoId, caption }));
  }

  async function thumbnail(visitId: string, photoId: string): Promise<string> {
    const known = thumbnails.value.get(photoId);
    if (known !== undefined) return known;
    const url = await api.visits.thumbnail({ visitId, photoId });
    thumbnails.value = new Map(thumbnails.value).set(photoId, url);
    return url;
  }

  /** A photo whole, for the viewer: read each time it is shown, never kept (a photo is megabytes). */
  function photo(visitId: string, photoId: string): Promise<string> {
    return api.visits.photo({ visitId, photoId });
  }

  /** Writes the visit sheet where the user chooses. */
  function sheet(id: string) {
    return api.visits.sheet({ id });
  }

  async function setTemplate(kind: VisitInstrumentKind, items: string[]): Promise<void> {
    const answer = await api.visits.setTemplate({ kind, items });
    templates.value = answer.templates;
  }

  return {
    lists,
    current,
    thumbnails,
    templates,
    lastEngineer,
    loadList,
    open,
    loadTemplates,
    start,
    update,
    remove,
    addPhoto,
    choosePhotos,
    addChosenPhoto,
    removePhoto,
    setCaption,
    thumbnail,
    photo,
    sheet,
    setTemplate,
  };
});
