import { z } from 'zod';

// zod would probe `new Function` to speed up parsing; our Content-Security-Policy forbids eval, and
// the probe alone reports a violation. Parse without it (imported first by main.tsx).
z.config({ jitless: true });
