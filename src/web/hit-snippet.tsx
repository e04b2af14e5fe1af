// A message hit's snippet with the server's highlight ranges drawn as <mark>.
import type { SearchHit } from '../server/api-types.js';
import { highlightSegments } from './highlight-segments.js';
import { visibleText } from './visible-text.js';

export function HitSnippet({ hit }: { hit: SearchHit }) {
  const flat = hit.snippet.replace(/\s+/g, ' ');
  // Whitespace folding keeps lengths only for single-byte runs; fold after splitting instead.
  const segments = highlightSegments(hit.snippet, hit.snippet_offset_bytes, hit.ranges);
  if (segments.length === 0) return <>{visibleText(flat)}</>;
  return (
    <>
      {segments.map((s, i) => {
        const text = visibleText(s.text.replace(/\s+/g, ' '));
        return s.mark ? <mark key={i}>{text}</mark> : <span key={i}>{text}</span>;
      })}
    </>
  );
}

export function HitBadges({ hit }: { hit: SearchHit }) {
  return (
    <>
      {hit.superseded ? <span class="badge">superseded</span> : null}
      {hit.truncated ? <span class="badge">truncated</span> : null}
      {hit.subagent ? <span class="badge">subagent</span> : null}
    </>
  );
}
