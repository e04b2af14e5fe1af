// A Gemini chat's working directory from its header alone: the header names the project only by the
// SHA-256 of its root (`projectHash`), so the root is the candidate (or an ancestor of one) that
// hashes to it. Sync asks with the allowed paths and the projects scans saw, and reads a chat past
// its header only once its directory is known to be allowed.
import type { DiscoveredSession } from '../types.js';
import { peekChat } from './discover.js';
import { findProjectRoot } from './project-root.js';

export async function geminiSessionCwd(session: DiscoveredSession, candidates: readonly string[] = []): Promise<string | null> {
  if (candidates.length === 0) return null;
  try {
    return findProjectRoot((await peekChat(session.path)).projectHash, candidates) ?? null;
  } catch {
    return null;
  }
}
