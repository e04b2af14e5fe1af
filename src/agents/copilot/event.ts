// One line of a Copilot CLI `events.jsonl` narrowed to the envelope the reader needs; the payload
// stays as the object it is and each consumer reads its own fields from it.
import { asObject, str, text, type JsonObject } from '../../json/narrow.js';

export interface CopilotEvent {
  /** 1-based line in the file. */
  line: number;
  type: string;
  id: string | undefined;
  at: string | null;
  data: JsonObject;
  /**
   * The launching tool call when a sub-agent wrote the event: `data.parentToolCallId` (older
   * versions), else looked up from the envelope's `agentId` by the reader.
   */
  parentToolCallId: string | undefined;
  agentId: string | undefined;
}

export function eventOf(o: JsonObject, line: number): CopilotEvent | undefined {
  const type = str(o, 'type');
  if (type === undefined) return undefined;
  const data = asObject(o['data']) ?? {};
  return {
    line,
    type,
    id: text(o, 'id'),
    at: text(o, 'timestamp') ?? null,
    data,
    parentToolCallId: text(data, 'parentToolCallId'),
    agentId: text(o, 'agentId'),
  };
}

/** The first line of a Copilot CLI session log: `session.start` with a session id and a producer. */
export function isStartLine(o: JsonObject | undefined): boolean {
  if (o === undefined || o['type'] !== 'session.start') return false;
  const data = asObject(o['data']);
  return str(data, 'sessionId') !== undefined && (str(data, 'producer') !== undefined || str(data, 'copilotVersion') !== undefined);
}
