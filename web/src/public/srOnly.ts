import type { CSSProperties } from 'react';

/**
 * Read by screen readers, drawn nowhere: a box of 1 px that clips what it holds. (The table itself
 * cannot be that box: a table grows to its rows whatever its height, and 500 rows made a tab
 * 13,775 px tall.)
 */
export const SR_ONLY: CSSProperties = { position: 'absolute', top: 0, left: 0, width: 1, height: 1, padding: 0, margin: -1, overflow: 'hidden', clip: 'rect(0 0 0 0)', clipPath: 'inset(50%)', whiteSpace: 'nowrap', border: 0 };
