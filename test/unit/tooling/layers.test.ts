/**
 * The layer rules (`npm run layers`, part of `npm run lint`) run over a small tree planted with
 * one breach of each kind: each is reported under its rule's name and the run fails; the same tree
 * without the breaches passes, and so does FieldDesk's own `src`.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = resolve(__dirname, '../../..');
const DEPCRUISE = join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs');
const folders: string[] = [];

afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A project folder with the repository's rules and the given files; answers the run's exit code and report. */
async function cruise(
  files: Record<string, string>,
  cwd?: string,
): Promise<{ code: number; report: string }> {
  let where = cwd;
  if (where === undefined) {
    where = mkdtempSync(join(tmpdir(), 'fielddesk-layers-'));
    folders.push(where);
    copyFileSync(join(ROOT, '.dependency-cruiser.cjs'), join(where, '.dependency-cruiser.cjs'));
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(dirname(join(where, name)), { recursive: true });
      writeFileSync(join(where, name), text);
    }
  }
  try {
    const { stdout } = await run(
      process.execPath,
      [DEPCRUISE, 'src', '--config', '.dependency-cruiser.cjs'],
      {
        cwd: where,
      },
    );
    return { code: 0, report: stdout };
  } catch (failure) {
    const { code, stdout } = failure as { code: number; stdout: string };
    return { code, report: stdout };
  }
}

/** A tree that keeps every rule. */
const SOUND: Record<string, string> = {
  'src/shared/units.ts': 'export const unit = "dB";\n',
  'src/main/backend/core/log.ts': 'import { unit } from "../../../shared/units";\nexport const log = unit;\n',
  'src/main/backend/visits/store.ts': 'import { log } from "../core/log";\nexport const visits = log;\n',
  'src/renderer/src/api.ts': 'export const api = {};\n',
  'src/renderer/src/api-injection.ts': 'export const useApi = () => ({});\n',
  'src/renderer/src/app.ts':
    'import { api } from "./api";\nimport { store } from "./features/visits/store";\nexport const app = [api, store];\n',
  'src/renderer/src/features/visits/store.ts':
    'import { useApi } from "../../api-injection";\nexport const store = useApi();\n',
  'src/renderer/src/features/visits/View.vue':
    '<script setup lang="ts">\nimport { store } from "./store";\nconsole.log(store);\n</script>\n',
};

describe('the layer rules', () => {
  it('pass a tree that keeps them', async () => {
    const { code, report } = await cruise(SOUND);
    expect(report).toContain('no dependency violations found');
    expect(code).toBe(0);
  });

  it('fail on core importing a domain, a cycle, a component calling the API, a store taking the real API and the renderer importing main', async () => {
    const { code, report } = await cruise({
      ...SOUND,
      'src/renderer/src/features/visits/store.ts':
        'import { api } from "../../api";\nexport const store = api;\n',
      'src/main/backend/core/log.ts':
        'import { visits } from "../visits/store";\nexport const log = visits;\n',
      'src/shared/a.ts': 'import { b } from "./b";\nexport const a = () => b;\n',
      'src/shared/b.ts': 'import { a } from "./a";\nexport const b = () => a;\n',
      'src/renderer/src/features/visits/View.vue':
        '<script setup lang="ts">\nimport { api } from "../../api";\nimport { visits } from "../../../../main/backend/visits/store";\nconsole.log(api, visits);\n</script>\n',
    });
    expect(code).not.toBe(0);
    expect(report).toMatch(
      /core-below-domains: src\/main\/backend\/core\/log\.ts → src\/main\/backend\/visits\/store\.ts/,
    );
    expect(report).toMatch(/no-cycle: src\/shared\/a\.ts/);
    expect(report).toMatch(
      /components-through-stores: src\/renderer\/src\/features\/visits\/View\.vue → src\/renderer\/src\/api\.ts/,
    );
    expect(report).toMatch(
      /renderer-sandboxed: src\/renderer\/src\/features\/visits\/View\.vue → src\/main\/backend\/visits\/store\.ts/,
    );
    expect(report).toMatch(
      /api-from-composition-only: src\/renderer\/src\/features\/visits\/store\.ts → src\/renderer\/src\/api\.ts/,
    );
  });

  it('let type-only imports point both ways (they are erased when built)', async () => {
    const { code, report } = await cruise({
      ...SOUND,
      'src/shared/a.ts': 'import type { B } from "./b";\nexport interface A { b?: B }\n',
      'src/shared/b.ts': 'import type { A } from "./a";\nexport interface B { a?: A }\n',
    });
    expect(report).toContain('no dependency violations found');
    expect(code).toBe(0);
  });

  it("hold for FieldDesk's own source", async () => {
    const { code, report } = await cruise({}, ROOT);
    expect(report).toContain('no dependency violations found');
    expect(code).toBe(0);
  });
});
