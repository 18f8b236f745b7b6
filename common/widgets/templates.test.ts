import { describe, expect, it } from 'vitest';
import { DashboardConfiguration } from '../schemas/dashboard';
import { TEMPLATES, suggestFields } from './templates';

describe('dashboard templates', () => {
  it.each(TEMPLATES.map((t) => [t.name, t] as const))('%s builds tabs the dashboard schema accepts', (_, template) => {
    const fields = Object.fromEntries(template.roles.map((r) => [r.key, `field_${r.key}`]));
    const parsed = DashboardConfiguration.safeParse({ tabs: template.build(fields) });
    expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
    const used = JSON.stringify(parsed.data);
    for (const r of template.roles) expect(used).toContain(`field_${r.key}`);
  });

  it('suggests a different field for every role from the field names', () => {
    const support = TEMPLATES.find((t) => t.id === 'support-queue')!;
    expect(suggestFields(support, ['ticket_id', 'subject', 'status', 'priority', 'created_at'])).toEqual({ status: 'status', priority: 'priority', date: 'created_at' });
    const sales = TEMPLATES.find((t) => t.id === 'sales-pipeline')!;
    expect(suggestFields(sales, ['deal', 'stage', 'amount', 'close_date'])).toEqual({ stage: 'stage', amount: 'amount', date: 'close_date' });
  });
});
