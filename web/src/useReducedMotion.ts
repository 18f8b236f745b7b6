import { useMediaQuery } from './useMediaQuery';

/** The operating system's "reduce motion" setting, which the whole web app honours. */
export const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';

/** True while the person asked their system for less motion; follows the setting as it changes. */
export const useReducedMotion = (): boolean => useMediaQuery(REDUCED_MOTION_QUERY);
