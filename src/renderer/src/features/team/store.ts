/**
 * features/team — team.*: this laptop's membership of a team, the replication's state (pushed as
 * `team.changed`) and the records in conflict.
 */
import { defineStore } from 'pinia';
import { ref, shallowRef } from 'vue';
import { useApi } from '../../api-injection';
import type { SiteImportPreview, SiteImportResult, TeamConflict, TeamStatus } from '../../../../shared/team';
import type { Site } from '../../../../shared/assessment';
import { fileBase64 } from '../../ui/file-base64';
import type { RequestArg } from '../../../../shared/ipc/contract';
import { errorMessage } from '../../errors';

export type TeamJoin = RequestArg<'team.join'>;

export const useTeamStore = defineStore('team', () => {
  const api = useApi();
  const status = shallowRef<TeamStatus | null>(null);
  const conflicts = shallowRef<TeamConflict[]>([]);
  const error = ref<string | null>(null);
  let unsubscribe: (() => void) | null = null;
  /** The newest state wins, pushed or answered (an answer may arrive after a newer push). */
  function accept(next: TeamStatus): void {
    if (status.value === null || next.seq >= status.value.seq) status.value = next;
  }

  async function loadConflicts(): Promise<void> {
    conflicts.value = status.value?.membership === null ? [] : await api.team.conflicts();
  }

  async function load(): Promise<void> {
    unsubscribe ??= api.team.onChanged((changed) => {
      const before = status.value?.conflicts;
      accept(changed);
      if (changed.conflicts !== before || changed.conflicts > 0) void loadConflicts().catch(() => undefined);
    });
    try {
      accept(await api.team.status());
      await loadConflicts();
      error.value = null;
    } catch (failure) {
      error.value = errorMessage(failure);
    }
  }

  /** Joins; throws the backend's reason (the form shows it). */
  async function join(request: TeamJoin): Promise<void> {
    accept(await api.team.join(request));
    await loadConflicts();
  }

  async function leave(): Promise<void> {
    accept(await api.team.leave());
    conflicts.value = [];
  }

  async function resolve(id: string, keepRev: string | null): Promise<void> {
    conflicts.value = await api.team.resolve({ id, keepRev });
    accept(await api.team.status());
  }

  /** The sites that may be handed over as one file. */
  const sites = shallowRef<Site[]>([]);
  async function loadSites(): Promise<void> {
    sites.value = (await api.assessment.sites()).sites;
  }

  const exportSite = (siteId: string) => api.team.exportSite({ siteId });
  const siteChanges = (siteId: string) => api.team.siteChanges({ siteId });
  const teamSites = () => api.team.sites();
  async function follow(sites: 'all' | string[]): Promise<void> {
    accept(await api.team.follow({ follow: sites }));
  }

  /** Reads a chosen site file and says what importing it would do; writes nothing. */
  async function previewSite(file: File): Promise<SiteImportPreview> {
    return api.team.previewSite({ fileName: file.name, data: await fileBase64(file) });
  }

  async function importSite(token: string, takeTheFiles: boolean): Promise<SiteImportResult> {
    const result = await api.team.importSite({ token, takeTheFiles });
    await loadSites();
    return result;
  }

  return {
    status,
    conflicts,
    error,
    sites,
    load,
    join,
    leave,
    resolve,
    loadSites,
    exportSite,
    siteChanges,
    teamSites,
    follow,
    previewSite,
    importSite,
  };
});
