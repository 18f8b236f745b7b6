import type { Modifier } from '@dnd-kit/core';

/** Keeps a dragged header on its row (the same as @dnd-kit/modifiers' restrictToHorizontalAxis, not installed). */
export const restrictToHorizontal: Modifier = ({ transform }) => ({ ...transform, y: 0 });
