// A loaded Gemini CLI conversation as the normalised record: turns in order, models, per-message
// token counts summed once per message id, and the working directories the log reveals.
import { newRecord, noteModel, noteTime } from '../../record/draft.js';
import { addTurnUsage, usageCarrier } from '../../record/turn-usage.js';
import { addTotals, type SessionRecord, type Turn } from '../../record/types.js';
import type { Conversation } from './load.js';
import { absoluteDir, findProjectRoot } from './project-root.js';

export interface GeminiBuild {
  record: SessionRecord;
  cwds: string[];
}

function pushOnce(list: string[], value: string | undefined): void {
  if (value !== undefined && value !== '' && !list.includes(value)) list.push(value);
}

export function buildGeminiRecord(conv: Conversation, fallbackId: string): GeminiBuild {
  const record = newRecord('gemini', conv.meta.sessionId ?? fallbackId);
  noteTime(record, conv.meta.startTime);
  noteTime(record, conv.meta.lastUpdated);
  const paths: string[] = [];
  const shellDirs: string[] = [];
  let model: string | undefined;

  for (const msg of conv.messages) {
    noteTime(record, msg.at ?? undefined);
    if (msg.kind === 'user') {
      if (msg.text !== '') record.turns.push({ role: 'user', at: msg.at, text: msg.text });
      continue;
    }
    if (msg.kind === 'event') {
      if (msg.text !== '') record.turns.push({ role: 'event', at: msg.at, text: msg.text });
      continue;
    }
    const from = record.turns.length;
    for (const th of msg.thoughts) record.turns.push({ role: 'reasoning', at: th.at, text: th.text });
    if (msg.model !== undefined) {
      model = msg.model;
      noteModel(record.models, model);
    }
    if (msg.tokens !== undefined) addTotals(record.totals, msg.tokens);
    paths.push(...msg.paths);
    shellDirs.push(...msg.shellDirs);
    if (msg.text !== '' || msg.toolCalls.length > 0) {
      // A message without a model of its own was written by the model of the messages before it.
      const turn: Turn = { role: 'assistant', at: msg.at, text: msg.text, tool_calls: msg.toolCalls };
      if (model !== undefined) turn.model = model;
      record.turns.push(turn);
    }
    const carrier = usageCarrier(record.turns, from);
    if (msg.tokens !== undefined) {
      if (carrier !== undefined) addTurnUsage(carrier, msg.tokens);
      else (record.usage_apart ??= []).push({ at: msg.at, ...(model === undefined ? {} : { model }), usage: msg.tokens });
    }
  }

  const root = findProjectRoot(conv.meta.projectHash, paths);
  const cwds: string[] = [];
  pushOnce(cwds, root);
  for (const d of shellDirs) pushOnce(cwds, absoluteDir(d, root));
  record.repo = cwds[0] ?? '';
  return { record, cwds };
}
