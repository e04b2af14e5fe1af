// Kimi Code's fail-closed size bounds (seed 000, "Kimi Code (extract_kimi.rs)"): a file over its
// bound is reported as oversized and never partially read into a record.

export interface KimiBounds {
  /** session_index.jsonl as a whole. */
  readonly indexBytes: number;
  /** One line of session_index.jsonl; one longer line rejects the whole index. */
  readonly indexRecordBytes: number;
  readonly stateBytes: number;
  /** One agent's wire.jsonl. */
  readonly wireBytes: number;
  /** One line of a wire; one longer line rejects the whole wire. */
  readonly wireRecordBytes: number;
  /** Every wire of one session together. */
  readonly sessionBytes: number;
  /** Wire records of one session together. */
  readonly sessionRecords: number;
  /** Agents read per session, main first. */
  readonly sessionAgents: number;
  /** Directory entries the discovery walk visits under one home before it stops. */
  readonly walkEntries: number;
}

const MiB = 1024 * 1024;

export const defaultKimiBounds: KimiBounds = {
  indexBytes: 8 * MiB,
  indexRecordBytes: 256 * 1024,
  stateBytes: 2 * MiB,
  wireBytes: 64 * MiB,
  wireRecordBytes: 2 * MiB,
  sessionBytes: 128 * MiB,
  sessionRecords: 200_000,
  sessionAgents: 256,
  walkEntries: 100_000,
};
