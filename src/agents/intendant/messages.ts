// What was said, message by message, with where it lives and whether a rewind superseded it: the
// structured form the record's turns are drawn from, kept for the message index (seed "Message
// Search", research §2.1–2.2), which needs superseded messages too.

/** Where a message lives in the session folder (the index's frozen locator kinds). */
export type MessageLocator =
  | { kind: 'native_message_id'; message_id: string }
  | { kind: 'native_event'; line_no: number; content_hash16: string }
  | { kind: 'native_sidecar_span'; file: string; offset: number; len: number; content_hash16: string };

export interface MessageEntry {
  role: 'user' | 'assistant';
  /** The text as the record carries it (clipped at 256 KiB head and tail). */
  text: string;
  tsMs: number | undefined;
  /** `Message.seq` of the lane, or the seq an epoch marker correlated a legacy message to. */
  seq: number | undefined;
  /** The seq a rewind cut is compared with: a projection's `ref_seq`, else its own seq. */
  cutKey: number | undefined;
  /** hash16 of the full text, when the full text was read (a user message's: legacy ones only, see `TurnList.user`). */
  hash: string | undefined;
  /** Reconstructed from pre-lane rows rather than read from the canonical lane. */
  legacy: boolean;
  locator: MessageLocator | undefined;
  /** A later `conversation_rewound` cut it: not a turn of the record, still findable. */
  superseded: boolean;
}
