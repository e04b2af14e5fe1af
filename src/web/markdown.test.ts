// Markdown becomes elements only from tokens: no element a log did not earn, no live link that is not
// http(s)/mailto, no image loaded, raw HTML as text.
import { type ComponentChildren, h, type VNode } from 'preact';
import { describe, expect, it } from 'vitest';
import { Markdown, markdownCharLimit } from './markdown.js';

interface Node {
  tag: string;
  props: Record<string, unknown>;
}

/** Expands function components and collects every element and text leaf. */
function flatten(children: ComponentChildren, out: { nodes: Node[]; text: string[] }): void {
  if (children === null || children === undefined || typeof children === 'boolean') return;
  if (typeof children === 'string' || typeof children === 'number' || typeof children === 'bigint') {
    out.text.push(String(children));
    return;
  }
  if (Array.isArray(children)) {
    for (const c of children) flatten(c as ComponentChildren, out);
    return;
  }
  const v = children as VNode<Record<string, unknown>>;
  if (typeof v.type === 'function') {
    flatten((v.type as (p: unknown) => ComponentChildren)(v.props), out);
    return;
  }
  if (typeof v.type === 'string') out.nodes.push({ tag: v.type, props: v.props });
  flatten(v.props.children as ComponentChildren, out);
}

function render(text: string) {
  const out = { nodes: [] as Node[], text: [] as string[] };
  flatten(h(Markdown, { text }), out);
  return out;
}

const allowedTags = new Set([
  'div',
  'p',
  'h3',
  'h4',
  'h5',
  'h6',
  'pre',
  'code',
  'strong',
  'em',
  'del',
  'br',
  'a',
  'span',
  'blockquote',
  'hr',
  'ul',
  'ol',
  'li',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
]);

describe('Markdown', () => {
  it('draws headings, lists, code and safe links as elements', () => {
    const { nodes } = render('# Title\n\n- **one**\n- `two`\n\n```diff\n+a\n-b\n```\n\n[site](https://example.com)');
    const tags = nodes.map((n) => n.tag);
    for (const t of ['h3', 'ul', 'li', 'strong', 'code', 'pre', 'a']) expect(tags).toContain(t);
    const a = nodes.find((n) => n.tag === 'a');
    expect(a?.props).toMatchObject({ href: 'https://example.com/', rel: 'noopener noreferrer' });
  });

  it('turns hostile content into text: raw HTML, script, javascript: links, images, escapes', () => {
    const hostile = [
      '<script>alert(1)</script>',
      'inline <img src=x onerror=alert(1)> html',
      '[click](javascript:alert(1)) and <a href="javascript:alert(2)">raw</a>',
      '![pixel](https://tracker.example/p.gif)',
      '<iframe src="https://evil.example"></iframe>',
      '\u001b[31mred\u001b[0m',
    ].join('\n\n');
    const { nodes, text } = render(hostile);
    for (const n of nodes) {
      expect(allowedTags).toContain(n.tag);
      for (const key of Object.keys(n.props)) expect(key.toLowerCase().startsWith('on')).toBe(false);
      expect(n.props.dangerouslySetInnerHTML).toBeUndefined();
    }
    expect(nodes.filter((n) => n.tag === 'a')).toHaveLength(0);
    const all = text.join('');
    expect(all).toContain('<script>alert(1)</script>');
    expect(all).toContain('<img src=x onerror=alert(1)>');
    expect(all).toContain('https://tracker.example/p.gif');
    expect(all).toContain('␛[31mred␛[0m');
  });

  it('keeps very long text plain instead of lexing it', () => {
    const { nodes, text } = render(`**${'x'.repeat(markdownCharLimit)}**`);
    expect(nodes.map((n) => n.tag)).toEqual(['div']);
    expect(text.join('')).toHaveLength(markdownCharLimit + 4);
  });
});
