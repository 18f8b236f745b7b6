import { useEffect, useId, useRef, useState, type CSSProperties, type HTMLAttributes, type ReactNode } from 'react';
import type { IconDefinition } from '@ant-design/icons-svg/es/types';
import InfoCircleFilled from '@ant-design/icons-svg/es/asn/InfoCircleFilled';
import ExclamationCircleFilled from '@ant-design/icons-svg/es/asn/ExclamationCircleFilled';
import './viewerUi.css';

/*
 * The few pieces the public viewer draws with, in plain elements and viewerUi.css: a first visit
 * downloads no component library. They look like the antd pieces the console uses (same sizes,
 * colours and icons); the parts of the viewer that open on demand (filter bar, tables, boards,
 * error pages) still use antd, in their own chunks.
 */

interface SvgNode {
  tag: string;
  attrs: Record<string, string>;
  children?: SvgNode[];
}

const draw = (node: SvgNode, key?: number): ReactNode => {
  const { tag: Tag, attrs, children } = node as { tag: 'svg'; attrs: Record<string, string>; children?: SvgNode[] };
  return <Tag key={key} {...attrs}>{children?.map(draw)}</Tag>;
};

/** An icon of antd's set (its SVG paths alone): decorative unless given a label. */
export function Icon({ icon, label, style }: { icon: IconDefinition; label?: string; style?: CSSProperties }) {
  const svg = icon.icon as unknown as SvgNode;
  return (
    <span className="lv-icon" role={label ? 'img' : undefined} aria-label={label} aria-hidden={label ? undefined : true} style={style}>
      {draw({ ...svg, attrs: { ...svg.attrs, 'aria-hidden': 'true' } })}
    </span>
  );
}

type ButtonProps = Omit<HTMLAttributes<HTMLButtonElement>, 'type'> & { icon?: IconDefinition; kind?: 'default' | 'primary' | 'text'; loading?: boolean; disabled?: boolean };

/** A button: default (outlined), primary or text; with only an icon it is square (give it an aria-label). */
export function Button({ icon, kind = 'default', loading, disabled, children, className, ...rest }: ButtonProps) {
  const classes = ['lv-btn', kind !== 'default' && `lv-btn-${kind}`, !children && kind !== 'text' && 'lv-btn-icon', className].filter(Boolean).join(' ');
  return (
    <button type="button" className={classes} disabled={disabled} aria-busy={loading || undefined} {...rest}>
      {loading ? <span className="lv-busy" aria-hidden="true" /> : icon && <Icon icon={icon} />}
      {children != null && <span>{children}</span>}
    </button>
  );
}

/** Shows `title` under its child while the pointer is over it or the keyboard focus in it. */
export function Tip({ title, children, end }: { title: ReactNode; children: ReactNode; end?: boolean }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <span
      className="lv-pop-anchor"
      aria-describedby={open ? id : undefined}
      onMouseEnter={() => setOpen(true)}
      onMouseLeave={() => setOpen(false)}
      onFocus={() => setOpen(true)}
      onBlur={() => setOpen(false)}
    >
      {children}
      {open && <span role="tooltip" id={id} className={end ? 'lv-tooltip lv-tooltip-end' : 'lv-tooltip'}>{title}</span>}
    </span>
  );
}

/** A menu opened by its button: Escape or a click elsewhere closes it, the first item takes the focus. */
export function MenuButton({ label, icon, disabled, items }: { label: string; icon: IconDefinition; disabled?: boolean; items: { key: string; label: string; icon?: IconDefinition; onClick(): void }[] }) {
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLSpanElement>(null);
  const id = useId();
  useEffect(() => {
    if (!open) return;
    box.current?.querySelector<HTMLElement>('[role=menuitem]')?.focus();
    const away = (e: Event) => {
      if (!box.current?.contains(e.target as Node)) setOpen(false);
    };
    const key = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      box.current?.querySelector<HTMLElement>('button')?.focus();
    };
    document.addEventListener('mousedown', away);
    document.addEventListener('keydown', key);
    return () => {
      document.removeEventListener('mousedown', away);
      document.removeEventListener('keydown', key);
    };
  }, [open]);
  return (
    <span className="lv-pop-anchor" ref={box}>
      <Button icon={icon} aria-label={label} aria-haspopup="menu" aria-expanded={open} aria-controls={open ? id : undefined} disabled={disabled} onClick={() => setOpen((o) => !o)} />
      {open && (
        <div role="menu" id={id} className="lv-menu">
          {items.map((item) => (
            <button
              key={item.key}
              type="button"
              role="menuitem"
              className="lv-menu-item"
              onClick={() => {
                setOpen(false);
                item.onClick();
              }}
            >
              {item.icon && <Icon icon={item.icon} />}
              {item.label}
            </button>
          ))}
        </div>
      )}
    </span>
  );
}

/** A card: a title bar (the title cut with "…", `extra` at its end) over its body. */
export function Card({ title, extra, large, bodyStyle, style, children, ...rest }: Omit<HTMLAttributes<HTMLDivElement>, 'title'> & { title?: ReactNode; extra?: ReactNode; large?: boolean; bodyStyle?: CSSProperties; 'data-testid'?: string; 'data-alert-state'?: string }) {
  return (
    <div className={large ? 'lv-card lv-card-large' : 'lv-card'} style={style} {...rest}>
      {title != null && (
        <div className="lv-card-head">
          <div className="lv-card-title" data-testid="widget-title">{title}</div>
          {extra && <div className="lv-card-extra">{extra}</div>}
        </div>
      )}
      <div className="lv-card-body" style={bodyStyle}>{children}</div>
    </div>
  );
}

/** Grey bars that shimmer while something loads (still, for reduced motion). */
export function SkeletonLines({ rows = 3, title = true, style, ...rest }: { rows?: number; title?: boolean; style?: CSSProperties; 'data-testid'?: string }) {
  return (
    <div className="lv-skel-lines" aria-busy="true" style={style} {...rest}>
      {title && <span className="lv-skel" style={{ width: '38%' }} />}
      {Array.from({ length: rows }, (_, i) => <span key={i} className="lv-skel" style={{ width: i === rows - 1 && rows > 1 ? '61%' : '100%' }} />)}
    </div>
  );
}

/** One shimmering block of a given size (a title or a button to come). */
export const SkeletonBlock = ({ style }: { style: CSSProperties }) => <span className="lv-skel" style={style} />;

/** An empty state: antd's empty-box picture and what is (not) there. */
export function Empty({ children }: { children: ReactNode }) {
  return (
    <div className="lv-empty">
      <svg width="64" height="41" viewBox="0 0 64 41" aria-hidden="true">
        <g transform="translate(0 1)" fill="none" fillRule="evenodd">
          <ellipse fill="var(--lv-fill-tertiary)" cx="32" cy="33" rx="32" ry="7" />
          <g fillRule="nonzero" stroke="var(--lv-border)">
            <path d="M55 12.8 44.9 1.3Q44 0 42.9 0H21.1q-1.2 0-2 1.3L9 12.8V22h46z" />
            <path d="M41.6 16c0-1.7 1-3 2.2-3H55v18.1c0 2.2-1.3 3.9-3 3.9H12c-1.7 0-3-1.7-3-3.9V13h11.2c1.2 0 2.2 1.3 2.2 3s1 2.9 2.2 2.9h14.8c1.2 0 2.2-1.4 2.2-3" fill="var(--lv-fill-tertiary)" />
          </g>
        </g>
      </svg>
      {children}
    </div>
  );
}

/** A note in a box: information (blue) or a warning (yellow), optionally with a line of detail. */
export function Alert({ type = 'info', title, text, banner, style, ...rest }: { type?: 'info' | 'warning'; title: ReactNode; text?: ReactNode; banner?: boolean; style?: CSSProperties; 'data-testid'?: string }) {
  const classes = ['lv-alert', type === 'warning' && 'lv-alert-warning', banner && 'lv-alert-banner', text != null && 'lv-alert-with-text'].filter(Boolean).join(' ');
  return (
    <div role="alert" className={classes} style={style} {...rest}>
      <Icon icon={type === 'warning' ? ExclamationCircleFilled : InfoCircleFilled} />
      <div style={{ flex: 1, minWidth: 0 }}>
        <div className={text != null ? 'lv-alert-title' : undefined}>{title}</div>
        {text != null && <div>{text}</div>}
      </div>
    </div>
  );
}
