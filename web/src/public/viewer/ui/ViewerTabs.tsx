import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

/**
 * The dashboard's tab strip (WAI-ARIA tabs: arrow keys, Home and End move between them). A tab's
 * content is drawn when it is first opened and kept, hidden, when another is: its charts and
 * scroll position are there when it comes back. A strip wider than the page scrolls.
 */
export function ViewerTabs({ tabs, active, onChange }: { tabs: { key: string; label: string; content: ReactNode }[]; active: string; onChange(key: string): void }) {
  const id = useId();
  const [visited, setVisited] = useState<Set<string>>(() => new Set([active]));
  if (!visited.has(active)) setVisited(new Set(visited).add(active));
  const strip = useRef<HTMLDivElement>(null);
  const onKey = (e: KeyboardEvent) => {
    const at = tabs.findIndex((t) => t.key === active);
    const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tabs.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    const next = tabs[(to + tabs.length) % tabs.length];
    onChange(next.key);
    strip.current?.querySelector<HTMLElement>(`[data-tab-key="${CSS.escape(next.key)}"]`)?.focus();
  };
  return (
    <div>
      <div role="tablist" className="lv-tablist" ref={strip} onKeyDown={onKey}>
        {tabs.map((t) => (
          <button
            key={t.key}
            type="button"
            role="tab"
            className="lv-tab"
            id={`${id}-tab-${t.key}`}
            data-tab-key={t.key}
            aria-selected={t.key === active}
            // Only a drawn panel can be named (axe: an id that exists).
            aria-controls={visited.has(t.key) ? `${id}-panel-${t.key}` : undefined}
            tabIndex={t.key === active ? 0 : -1}
            onClick={() => onChange(t.key)}
          >
            {t.label}
          </button>
        ))}
      </div>
      {tabs.filter((t) => visited.has(t.key)).map((t) => (
        <div key={t.key} role="tabpanel" id={`${id}-panel-${t.key}`} aria-labelledby={`${id}-tab-${t.key}`} hidden={t.key !== active} tabIndex={t.key === active ? 0 : -1}>
          {t.content}
        </div>
      ))}
    </div>
  );
}
