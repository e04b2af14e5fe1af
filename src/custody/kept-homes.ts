// Makes reads see kept copies: each reader's kept roots (the installations that keep one of its
// homes) are added after its vendor homes, so discovery finds a pruned session in custody and a live
// one in the vendor tree first.
import type { AgentHomes } from '../scan/scan.js';
import { type Installation, installationsOf, listInstallationsSync } from './installation.js';
import { keptBase } from './paths.js';
import { isInside } from './safe-fs.js';

/**
 * The agent list with kept roots appended per reader (synchronous: the CLI calls it at start-up).
 * `installations` is the state root's list when the caller has it already (one agent at a time).
 */
export function withKeptRoots(
  agents: readonly AgentHomes[],
  stateRoot: string,
  installations: readonly Installation[] = listInstallationsSync(stateRoot),
): AgentHomes[] {
  if (installations.length === 0) return [...agents];
  return agents.map(({ reader, homes, linkFree }) => {
    const kept = homes.flatMap((h) => installationsOf(installations, reader.id, h).map((i) => i.root));
    const added = kept.filter((k, i) => !homes.includes(k) && kept.indexOf(k) === i);
    return { reader, homes: [...homes, ...added], linkFree: [...(linkFree ?? []), ...added] };
  });
}

/** The vendor homes alone: drops kept roots a caller's list may hold (custody never keeps custody). */
export function vendorHomes(agents: readonly AgentHomes[], stateRoots: readonly string[]): AgentHomes[] {
  const bases = stateRoots.map(keptBase);
  return agents.map(({ reader, homes }) => ({ reader, homes: homes.filter((h) => !bases.some((b) => isInside(b, h))) }));
}
