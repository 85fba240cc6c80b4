/**
 * features/visits — visits.*: the active account's site visits (the engineer's own record, kept in
 * records.db and worked on offline), the visit open on screen, its photos' thumbnails, and the
 * checklist templates per kind of instrument.
 */
import { defineStore } from 'pinia';
import { ref, shallowRef } from 'vue';
import { api } from '../../api';
import type { RequestArg } from '../../../../shared/ipc/contract';
import type { ChecklistTemplates } from '../../../../shared/ipc/visit-requests';
import type { VisitDetail, VisitInstrumentKind, VisitList } from '../../../../shared/visits';
import { preparePhoto } from './thumbnail';

export const useVisitsStore = defineStore('visits', () => {
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
   * Copies a photo into the visit: the thumbnail (and a reduced copy, `reduce`) drawn here, where
   * the browser can decode it. `onStage` hears when the photo is read and goes to be checked and kept.
   */
  async function addPhoto(
    visitId: string,
    file: File,
    options: { reduce: boolean; onStage?: (stage: 'reading' | 'keeping') => void } = { reduce: false },
  ): Promise<VisitDetail> {
    options.onStage?.('reading');
    const { imageBase64, thumbnail } = await preparePhoto(file, options.reduce);
    options.onStage?.('keeping');
    const detail = show(
      await api.visits.addPhoto({
        visitId,
        fileName: file.name,
        caption: '',
        imageBase64,
        thumbnailBase64: thumbnail.base64,
      }),
    );
    const added = detail.visit.photos.at(-1);
    if (added !== undefined) thumbnails.value = new Map(thumbnails.value).set(added.id, thumbnail.dataUrl);
    return detail;
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
    removePhoto,
    setCaption,
    thumbnail,
    photo,
    sheet,
    setTemplate,
  };
});
