// An agent's small fixed-hue chip (design brief: each agent a fixed hue, never colour alone).
const hues: Record<string, number> = { claude_code: 25, codex: 160, kimi: 280, pi: 200, intendant: 330, gemini: 220, opencode: 95 };

export function AgentChip({ agent }: { agent: string }) {
  return (
    <span class="chip" style={{ '--hue': String(hues[agent] ?? 0) }}>
      {agent}
    </span>
  );
}
