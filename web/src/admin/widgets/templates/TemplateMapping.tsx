import { Card, Flex, Form, Select, Typography } from 'antd';
import type { FieldTyping } from '@common/types/fieldTyping';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { RecordDto } from '@common/schemas/records/record';
import { suggestFields, templateProblems, valueRoles, type DashboardTemplate, type FieldRole, type TemplateMapping, type ValuesRole } from '@common/widgets/templates';
import { cleanPickedValues, distinctValues, suggestValues, type ValueCount } from '@common/widgets/templateValues';
import { FieldSelect, pickerFields } from '../../ui/FieldSelect';
import { recordFields } from '../widgetDrafts';

/**
 * The user's mapping of a template onto a source's records: a field per field role (suggested from
 * the field names), and for every category field the values counting for each values role
 * (suggested from the field's values, again whenever another field is chosen).
 */
export function useTemplateMapping(template: DashboardTemplate, records: RecordDto[]) {
  const available = useMemo(() => recordFields(records), [records]);
  const data = useMemo(() => records.map((r) => r.data), [records]);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [values, setValues] = useState<Record<string, string[]>>({});
  // Which field (and whether it had values) each category role's values were last suggested for.
  const suggestedFor = useRef<Record<string, string>>({});
  // New records: fill the roles whose field is not among them (a choice still valid is kept).
  useEffect(() => setFields((f) => ({ ...suggestFields(template, available), ...Object.fromEntries(Object.entries(f).filter(([, v]) => available.includes(v))) })), [template, available]);
  const distinct = useMemo(() => {
    const out: Record<string, ValueCount[]> = {};
    for (const r of valueRoles(template)) if (fields[r.of]) out[r.of] ??= distinctValues(data, fields[r.of]);
    return out;
  }, [template, fields, data]);
  useEffect(() => {
    // No records: another source is being read, whose values are suggested afresh.
    if (data.length === 0) suggestedFor.current = {};
    for (const [of, seen] of Object.entries(distinct)) {
      const key = `${fields[of]}\n${seen.length > 0}`;
      if (suggestedFor.current[of] === key) continue;
      suggestedFor.current[of] = key;
      setValues((v) => ({ ...v, ...suggestValues(valueRoles(template, of), seen.map((x) => x.value)) }));
    }
  }, [template, distinct, fields, data]);
  const mapping: TemplateMapping = { fields, values };
  return {
    mapping,
    available,
    distinct,
    problems: templateProblems(template, mapping),
    setField: (key: string, field: string) => setFields((f) => ({ ...f, [key]: field })),
    setRoleValues: (key: string, list: string[]) => setValues((v) => ({ ...v, [key]: list })),
  };
}

type Mapping = ReturnType<typeof useTemplateMapping>;

/** A field pick per field role (searchable, each field with its type); under a category field, a multi-select per values role of it. */
export function TemplateMappingFields({ template, m, typing, label, tried }: { template: DashboardTemplate; m: Mapping; typing: FieldTyping; label(field: string): string; tried: boolean }) {
  const error = (key: string) => (tried && m.problems[key] ? { validateStatus: 'error' as const, help: m.problems[key] } : {});
  const fieldRoles = template.roles.filter((r): r is FieldRole => r.kind !== 'values');
  const fields = pickerFields(m.available, typing);
  return (
    <>
      {fieldRoles.map((r) => (
        <div key={r.key}>
          <Form.Item label={`${r.label} (${r.kind})`} {...error(r.key)}>
            <FieldSelect aria-label={`${r.label} field`} placeholder="Select a field" value={m.mapping.fields[r.key]} onChange={(v) => m.setField(r.key, v as string)} fields={fields} typing={typing} label={label} />
          </Form.Item>
          {valueRoles(template, r.key).length > 0 && <ValueRoleSelects roles={valueRoles(template, r.key)} field={m.mapping.fields[r.key]} m={m} label={label} error={error} />}
        </div>
      ))}
    </>
  );
}

function ValueRoleSelects({ roles, field, m, label, error }: {
  roles: ValuesRole[]; field: string | undefined; m: Mapping; label(field: string): string; error(key: string): object;
}) {
  const seen = (field && m.distinct[roles[0].of]) || [];
  const counts = new Map(seen.map((v) => [v.value, v.count]));
  const owner = (value: string, except: string) => roles.find((r) => r.key !== except && m.mapping.values[r.key]?.includes(value))?.label;
  const title = field ? `Which values of "${label(field)}" count as ${roles.map((r) => `"${r.label}"`).join(', ').replace(/, ([^,]*)$/, ' and $1')}` : `Pick the ${label(roles[0].of)} field to map its values`;
  return (
    <Card size="small" type="inner" title={title} style={{ marginBottom: 24 }} data-testid={`template-values-${roles[0].of}`}>
      {field && seen.length === 0 && <Typography.Paragraph type="secondary">No values of this field in the source's records yet: type the values.</Typography.Paragraph>}
      {roles.map((r) => (
        <Form.Item key={r.key} label={r.label} {...error(r.key)}>
          <Select
            aria-label={`${r.label} values`}
            mode="tags"
            tokenSeparators={[',']}
            disabled={!field}
            placeholder="Pick or type values"
            value={m.mapping.values[r.key] ?? []}
            onChange={(v: string[]) => m.setRoleValues(r.key, cleanPickedValues(v, seen.map((x) => x.value)))}
            options={seen.map((v) => ({ value: v.value, label: v.value }))}
            optionRender={(o) => {
              const other = owner(String(o.value), r.key);
              const n = counts.get(String(o.value));
              return (
                <Flex justify="space-between" gap={8}>
                  <span>{o.label}</span>
                  <Typography.Text type="secondary" style={{ marginInlineEnd: 8 }}>{other ? `${other} · ` : ''}{n === undefined ? 'not in the records' : `${n} record${n === 1 ? '' : 's'}`}</Typography.Text>
                </Flex>
              );
            }}
          />
        </Form.Item>
      ))}
    </Card>
  );
}
