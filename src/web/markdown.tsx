// Markdown → Preact elements from marked's token stream (issue 12 "Safety"): every leaf is a text
// node, raw HTML is shown as text, links are kept only for http(s)/mailto, images are never loaded.
import { Lexer, type Token, type Tokens } from 'marked';
import type { ComponentChildren } from 'preact';
import { safeHref } from './safe-url.js';
import { visibleText } from './visible-text.js';

/** Past this many characters a message is shown as plain text: the lexer's regexes are not linear. */
export const markdownCharLimit = 64 * 1024;

type HeadingTag = 'h3' | 'h4' | 'h5' | 'h6';
const headingTags: readonly HeadingTag[] = ['h3', 'h3', 'h4', 'h5', 'h6', 'h6'];

function inline(tokens: readonly Token[] | undefined): ComponentChildren {
  if (tokens === undefined) return null;
  return tokens.map((t, i) => <InlineToken key={i} token={t} />);
}

function InlineToken({ token }: { token: Token }) {
  switch (token.type) {
    case 'text': {
      const t = token as Tokens.Text;
      return t.tokens !== undefined ? inline(t.tokens) : visibleText(t.text);
    }
    case 'escape':
      return <>{visibleText((token as Tokens.Escape).text)}</>;
    case 'strong':
      return <strong>{inline((token as Tokens.Strong).tokens)}</strong>;
    case 'em':
      return <em>{inline((token as Tokens.Em).tokens)}</em>;
    case 'del':
      return <del>{inline((token as Tokens.Del).tokens)}</del>;
    case 'codespan':
      return <code>{visibleText((token as Tokens.Codespan).text)}</code>;
    case 'br':
      return <br />;
    case 'link': {
      const t = token as Tokens.Link;
      const href = safeHref(t.href);
      if (href === null)
        return (
          <span class="blocked-link" title={`link not followed: ${visibleText(t.href)}`}>
            {inline(t.tokens)}
          </span>
        );
      return (
        <a href={href} rel="noopener noreferrer" target="_blank">
          {inline(t.tokens)}
        </a>
      );
    }
    case 'image': {
      const t = token as Tokens.Image;
      return (
        <span class="image-ref">
          [image: {visibleText(t.text || 'no description')}] <span class="mono">{visibleText(t.href)}</span>
        </span>
      );
    }
    case 'html':
    case 'tag':
      return <span class="raw-html">{visibleText(token.raw)}</span>;
    default:
      return <>{visibleText(token.raw)}</>;
  }
}

function Block({ token }: { token: Token }) {
  switch (token.type) {
    case 'space':
    case 'def':
      return null;
    case 'paragraph':
      return <p>{inline((token as Tokens.Paragraph).tokens)}</p>;
    case 'text': {
      const t = token as Tokens.Text;
      return <p>{t.tokens !== undefined ? inline(t.tokens) : visibleText(t.text)}</p>;
    }
    case 'heading': {
      const t = token as Tokens.Heading;
      const Tag = headingTags[t.depth - 1] ?? 'h6';
      return <Tag>{inline(t.tokens)}</Tag>;
    }
    case 'code': {
      const t = token as Tokens.Code;
      return <CodeBlock text={t.text} lang={t.lang ?? ''} />;
    }
    case 'blockquote':
      return <blockquote>{blocks((token as Tokens.Blockquote).tokens)}</blockquote>;
    case 'hr':
      return <hr />;
    case 'list': {
      const t = token as Tokens.List;
      const items = t.items.map((item, i) => (
        <li key={i}>
          {item.task ? <span aria-hidden="true">{item.checked ? '☑ ' : '☐ '}</span> : null}
          {item.loose ? blocks(item.tokens.filter((x) => x.type !== 'checkbox')) : listItemInline(item.tokens)}
        </li>
      ));
      return t.ordered ? <ol start={typeof t.start === 'number' ? t.start : undefined}>{items}</ol> : <ul>{items}</ul>;
    }
    case 'table': {
      const t = token as Tokens.Table;
      return (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                {t.header.map((c, i) => (
                  <th key={i}>{inline(c.tokens)}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {t.rows.map((row, r) => (
                <tr key={r}>
                  {row.map((c, i) => (
                    <td key={i}>{inline(c.tokens)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
    }
    case 'html':
      return <pre class="raw-html">{visibleText(token.raw)}</pre>;
    default:
      return <p>{visibleText(token.raw)}</p>;
  }
}

function listItemInline(tokens: readonly Token[]): ComponentChildren {
  return tokens
    .filter((t) => t.type !== 'checkbox')
    .map((t, i) => (t.type === 'text' ? <InlineToken key={i} token={t} /> : <Block key={i} token={t} />));
}

function blocks(tokens: readonly Token[]): ComponentChildren {
  return tokens.map((t, i) => <Block key={i} token={t} />);
}

/** A fenced block: diffs get +/- line colouring, everything else is plain monospace. */
export function CodeBlock({ text, lang }: { text: string; lang: string }) {
  const shown = visibleText(text);
  if (lang === 'diff' || lang === 'patch')
    return (
      <pre class="code diff">
        {shown.split('\n').map((line, i) => (
          <span key={i} class={line.startsWith('+') ? 'add' : line.startsWith('-') ? 'del' : line.startsWith('@@') ? 'hunk' : undefined}>
            {line}
            {'\n'}
          </span>
        ))}
      </pre>
    );
  return <pre class="code">{shown}</pre>;
}

/** The agent's text as Markdown elements; very long text stays plain. */
export function Markdown({ text }: { text: string }) {
  if (text.length > markdownCharLimit) return <div class="plain">{visibleText(text)}</div>;
  let tokens: Token[];
  try {
    tokens = Lexer.lex(text, { gfm: true });
  } catch {
    return <div class="plain">{visibleText(text)}</div>;
  }
  return <div class="md">{blocks(tokens)}</div>;
}
