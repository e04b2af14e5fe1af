// Reads one Qwen Code chat file into its records in file order. Bad lines are counted; a torn final
// line (Qwen Code still appending) is neither a record nor bad.
import type { LineInfo } from '../../fs/read-lines.js';
import { skimJsonl } from '../skim-jsonl.js';
import { chatRecordOf, type QwenRecord } from './chat-record.js';

/** One record above this is skipped and counted (a pasted image, a huge tool result). */
export const maxRecordBytes = 32 * 1024 * 1024;

export interface ChatFile {
  records: QwenRecord[];
  badLines: number;
}

/**
 * A tool result carries the tool's whole output; below the full detail level the record needs only
 * its place in the uuid tree, its time and its working directory (all written before the message)
 * unless it reports a subagent run (`task_execution`). Such a record is read from its first bytes.
 */
const headBytes = 1024;
const toolResultType = Buffer.from('"type":"tool_result"');
/**
 * `"task_execution"` is searched for by its tail: a needle opening with a quote stops at every
 * escaped quote of a tool's output, and one opening with `t` at every t; `_` is rare, so the search
 * skips through (the bench home's 25 MiB of tool results: 12 ms a pass down to 3-6).
 */
const taskExecutionTail = Buffer.from('_execution"');
const taskExecutionHead = Buffer.from('"task');

/** Whether `line` holds `"task_execution"`. */
function hasTaskExecution(line: Buffer): boolean {
  const before = taskExecutionHead.length;
  for (let at = line.indexOf(taskExecutionTail); at !== -1; at = line.indexOf(taskExecutionTail, at + 1)) {
    if (at >= before && line.compare(taskExecutionHead, 0, before, at - before, at) === 0) return true;
  }
  return false;
}
const headFields =
  /^\{(?:"backgroundTurn":\{[^{}]*\},)?"uuid":"([^"\\]+)","parentUuid":(?:null|"([^"\\]+)"),"sessionId":"[^"\\]*","timestamp":"([^"\\]+)","type":"tool_result"/;
const cwdField = /"cwd":("(?:[^"\\]|\\.)*")/;

function skimToolResult(buf: Buffer, start: number, end: number, line: number): QwenRecord | undefined {
  // A view of the line: searching `buf` itself would run on through the rest of the read chunk.
  const bytes = buf.subarray(start, end);
  // The type is looked for in the bytes: most lines are not tool results, and decoding their head
  // here was a second decode of it (ASCII bytes decode to the same characters, so the test agrees).
  if (bytes.subarray(0, headBytes).indexOf(toolResultType) === -1) return undefined;
  if (hasTaskExecution(bytes)) return undefined;
  const head = buf.toString('utf8', start, Math.min(end, start + headBytes));
  const m = headFields.exec(head);
  const cwd = cwdField.exec(head)?.[1];
  if (m?.[1] === undefined || m[3] === undefined || cwd === undefined) return undefined;
  return {
    line,
    uuid: m[1],
    parentUuid: m[2],
    sessionId: undefined,
    type: 'tool_result',
    subtype: undefined,
    at: m[3],
    cwd: JSON.parse(cwd) as string,
    gitBranch: undefined,
    sidechain: false,
    agentId: undefined,
    agentName: undefined,
    model: undefined,
    usage: undefined,
    texts: [],
    thoughts: [],
    calls: [],
    responses: [],
    toolResult: undefined,
    systemPayload: undefined,
  };
}

/**
 * Throws only for I/O (a missing or unreadable file). Without `full`, tool results that report no
 * subagent are read from their first bytes only (the lower detail levels keep a call's name alone).
 */
export async function readChat(path: string, full = true): Promise<ChatFile> {
  const records: QwenRecord[] = [];
  const badLines = skimJsonl(
    path,
    {
      ...(full
        ? {}
        : {
            skim: (buf: Buffer, start: number, end: number, info: LineInfo) => {
              const r = skimToolResult(buf, start, end, info.line);
              if (r !== undefined) records.push(r);
              return r !== undefined;
            },
          }),
      onObject: (o, info) => {
        const record = chatRecordOf(o, info.line);
        if (record !== undefined) records.push(record);
      },
    },
    { maxLineBytes: maxRecordBytes },
  );
  return { records, badLines };
}
