/**
 * The packaging config as electron-builder itself reads and validates it: the Electron fuses that
 * harden the shipped binary are set, and native modules stay loadable from the asar.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { Configuration } from 'electron-builder';

// electron-builder's own config reader and validator, from the copy electron-builder uses.
const fromBuilder = createRequire(createRequire(import.meta.url).resolve('electron-builder'));
const { getConfig, validateConfiguration } = fromBuilder('app-builder-lib/out/util/config/config') as {
  getConfig(projectDir: string, configPath: null, fromOptions: null): Promise<Configuration>;
  validateConfiguration(config: Configuration, logger: unknown): Promise<void>;
};
const { DebugLogger } = fromBuilder('builder-util') as {
  DebugLogger: new (enabled: boolean) => unknown;
};

const config = await getConfig(process.cwd(), null, null);

describe('packaging (electron-builder.yml)', () => {
  it('is a configuration electron-builder accepts', async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('flips the fuses: no run-as-node, NODE_OPTIONS or inspector; cookies encrypted; only the verified asar', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableCookieEncryption: true,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
    // Loading only from the asar needs the asar (electron-builder's default): never switched off.
    expect(config.asar).not.toBe(false);
  });

  it('keeps native modules outside the asar and does not rebuild them (N-API, TOOLCHAIN.md)', () => {
    expect(config.npmRebuild).toBe(false);
    expect(config.asarUnpack).toContain('**/*.node');
  });
});
