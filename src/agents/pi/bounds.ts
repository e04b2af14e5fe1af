// Pi's read bounds (research intendant.md §3.5: file, line and discovery scans are bounded).

export interface PiBounds {
  /** One session file; a larger one is reported as oversized and not read. */
  readonly fileBytes: number;
  /** Lines read per file; a longer file is reported as oversized and not read. */
  readonly fileLines: number;
  /** One line; a longer one is skipped and counted as a bad line. */
  readonly lineBytes: number;
  /** The header line read at discovery. */
  readonly headerBytes: number;
  /** Directory entries the discovery walk visits under one home before it stops. */
  readonly walkEntries: number;
}

const MiB = 1024 * 1024;

export const defaultPiBounds: PiBounds = {
  fileBytes: 128 * MiB,
  fileLines: 200_000,
  lineBytes: 32 * MiB,
  headerBytes: MiB,
  walkEntries: 100_000,
};
