// The two agents that keep Cline's task layout, and the homes each is found under: its own data
// folder (Cline's CLI and standalone host, Roo Code's CLI) and each VS Code build's global storage.
import { join } from 'node:path';
import type { HomeLookup, HomeVariable } from '../types.js';

export type ClineAgentId = 'cline' | 'roo_code';

export interface ClineVariant {
  id: ClineAgentId;
  displayName: string;
  aliases: readonly string[];
  /** The extension's folder under `User/globalStorage` (VS Code lower-cases the extension id). */
  extensionFolder: string;
  homeVariables: readonly HomeVariable[];
  /** The homes outside VS Code's user data (a CLI's own data folder). */
  ownHomes(lookup: HomeLookup): string[];
}

/** VS Code and the forks that run these extensions, by their user-data folder name. */
const vscodeBuilds = ['Code', 'Code - Insiders', 'VSCodium', 'Cursor', 'Windsurf'] as const;
/** Remote hosts keep the extension's storage on the server side, under `<folder>/data/User`. */
const serverFolders = ['.vscode-server', '.vscode-server-insiders', '.cursor-server'] as const;

/** Every VS Code global-storage folder of one extension: Linux (`$XDG_CONFIG_HOME`), macOS, remote servers. */
export function vscodeStorageHomes(lookup: HomeLookup, extensionFolder: string): string[] {
  const config = lookup.env('XDG_CONFIG_HOME') ?? join(lookup.homedir, '.config');
  const mac = join(lookup.homedir, 'Library', 'Application Support');
  return [
    ...vscodeBuilds.map((b) => join(config, b, 'User', 'globalStorage', extensionFolder)),
    ...vscodeBuilds.map((b) => join(mac, b, 'User', 'globalStorage', extensionFolder)),
    ...serverFolders.map((s) => join(lookup.homedir, s, 'data', 'User', 'globalStorage', extensionFolder)),
  ];
}

const clineExtension = 'saoudrizwan.claude-dev';
const rooExtension = 'rooveterinaryinc.roo-cline';

const xdgVariable = (extensionFolder: string): HomeVariable => ({
  name: 'XDG_CONFIG_HOME',
  default: '~/.config',
  folder: join('Code', 'User', 'globalStorage', extensionFolder),
});

export const clineVariant: ClineVariant = {
  id: 'cline',
  displayName: 'Cline',
  aliases: ['claude dev'],
  extensionFolder: clineExtension,
  homeVariables: [
    // Cline's data folder: CLINE_DATA_DIR, else CLINE_DIR/data, else ~/.cline/data (v3.60 cli/src/utils/path.ts,
    // src/standalone/vscode-context.ts; v4 legacy-state-reader.ts).
    { name: 'CLINE_DATA_DIR', default: '~/.cline/data' },
    { name: 'CLINE_DIR', default: '~/.cline', folder: 'data' },
    xdgVariable(clineExtension),
  ],
  ownHomes(lookup) {
    return [lookup.env('CLINE_DATA_DIR') ?? join(lookup.env('CLINE_DIR') ?? join(lookup.homedir, '.cline'), 'data')];
  },
};

export const rooVariant: ClineVariant = {
  id: 'roo_code',
  displayName: 'Roo Code',
  aliases: ['roo', 'roo cline'],
  extensionFolder: rooExtension,
  homeVariables: [xdgVariable(rooExtension)],
  ownHomes(lookup) {
    // Roo Code's CLI runs the extension against a mock VS Code whose global storage is this folder.
    return [join(lookup.homedir, '.vscode-mock', 'global-storage')];
  },
};

/** The variant's homes: VS Code's storage first for Roo Code, Cline's own data folder first for Cline. */
export function variantHomes(variant: ClineVariant, lookup: HomeLookup): string[] {
  const vscode = vscodeStorageHomes(lookup, variant.extensionFolder);
  return variant.id === 'cline' ? [...variant.ownHomes(lookup), ...vscode] : [...vscode, ...variant.ownHomes(lookup)];
}
