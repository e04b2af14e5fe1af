import { describe, expect, it } from 'vitest';
import { isMachinery, machineryPrefixes, userTextOfEvent, userTextOfMessage } from './user-text.js';

const message = (...texts: string[]) => ({ type: 'message', role: 'user', content: texts.map((text) => ({ type: 'input_text', text })) });

describe('userTextOfMessage', () => {
  it('keeps typed text and drops every injected block', () => {
    const injected = [
      '# AGENTS.md instructions for /work/demo\n\n<INSTRUCTIONS>\nbe nice\n</INSTRUCTIONS>',
      '<environment_context>\n  <cwd>/work/demo</cwd>\n</environment_context>',
      '<permissions instructions>\nFilesystem sandboxing: workspace-write\n</permissions instructions>',
      '<user_instructions>\nuse tabs\n</user_instructions>',
      '  <collaboration_mode>default</collaboration_mode>',
    ];
    expect(userTextOfMessage(message(...injected, 'Summarise the README.'))).toEqual({ text: 'Summarise the README.', aborted: false });
  });

  it('gives no text for a message that was only machinery', () => {
    for (const prefix of machineryPrefixes) {
      expect(userTextOfMessage(message(`${prefix} whatever follows`)).text).toBe('');
    }
  });

  it('lets content_item_kinds decide when present, over the prefix list', () => {
    const payload = {
      ...message('<environment_context>typed by the person</environment_context>', 'ordinary looking but injected'),
      internal_chat_message_metadata_passthrough: { content_item_kinds: ['user.text', 'agents_md.instructions'] },
    };
    expect(userTextOfMessage(payload).text).toBe('<environment_context>typed by the person</environment_context>');
  });

  it('flags the <turn_aborted> marker as an interruption, not text', () => {
    expect(userTextOfMessage(message('<turn_aborted>\n<reason>interrupted</reason>\n</turn_aborted>'))).toEqual({
      text: '',
      aborted: true,
    });
  });

  it('skips images and non-text parts, and reads a string content', () => {
    expect(
      userTextOfMessage({
        role: 'user',
        content: [
          { type: 'input_image', image_url: 'data:…' },
          { type: 'input_text', text: 'look' },
        ],
      }).text,
    ).toBe('look');
    expect(userTextOfMessage({ role: 'user', content: 'plain string' }).text).toBe('plain string');
    expect(userTextOfMessage({ role: 'user' }).text).toBe('');
  });
});

describe('userTextOfEvent', () => {
  it('reads the typed message and drops machinery and tagged kinds', () => {
    expect(userTextOfEvent({ type: 'user_message', message: ' fix it ' }).text).toBe('fix it');
    expect(userTextOfEvent({ type: 'user_message', message: '<environment_context>x</environment_context>' }).text).toBe('');
    expect(userTextOfEvent({ type: 'user_message', message: 'x', kind: 'user_instructions' }).text).toBe('');
    expect(userTextOfEvent({ type: 'user_message', message: 'x', kind: 'plain' }).text).toBe('x');
  });
});

describe('isMachinery', () => {
  it('matches prefixes after leading whitespace only', () => {
    expect(isMachinery('\n <environment_context>')).toBe(true);
    expect(isMachinery('please read <environment_context>')).toBe(false);
    expect(isMachinery('Another task')).toBe(false);
    expect(isMachinery('')).toBe(false);
  });
});
