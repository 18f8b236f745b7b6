import { Select, Tag, Typography, type SelectProps } from 'antd';
import { useMemo, useState } from 'react';
import { pathProblem } from '@common/paths';
import type { FieldType } from '@common/schemas/dataSource';
import { fieldTypeOf, type FieldTyping } from '@common/types/fieldTyping';

/** How the console names the types of the type model. */
export const FIELD_TYPE_LABELS: Record<FieldType, string> = {
  text: 'Text', number: 'Number', boolean: 'Yes / No', datetime: 'Date & time', category: 'Category',
};

/**
 * The fields a picker offers: the fields given, where the type model knows leaf paths inside one
 * (`issue.id`, `issue.title`) those paths instead of the whole object.
 */
export function pickerFields(fields: readonly string[], typing: FieldTyping): string[] {
  const typed = Object.keys(typing.fieldTypes);
  const out = new Set<string>();
  for (const f of fields) {
    const inside = fieldTypeOf(typing, f) ? [] : typed.filter((p) => p.startsWith(`${f}.`));
    if (inside.length) inside.forEach((p) => out.add(p));
    else out.add(f);
  }
  return [...out];
}

/** One option: the field's name (its key beside a label) and its type. */
function FieldOption({ field, label, type }: { field: string; label: string; type?: FieldType }) {
  return (
    <span data-field-option={field}>
      {label}
      {label !== field && <Typography.Text type="secondary" style={{ fontSize: 12 }}> {field}</Typography.Text>}
      {type && <Tag style={{ marginLeft: 6, fontSize: 11 }} data-field-type={type}>{FIELD_TYPE_LABELS[type]}</Tag>}
    </span>
  );
}

type Props = Omit<SelectProps, 'options' | 'showSearch' | 'filterOption' | 'onSearch'> & {
  fields: readonly string[];
  typing: FieldTyping;
  label(field: string): string;
};

/**
 * A field pick (table columns, bucket key, widget field, filter): the fields given (`pickerFields`:
 * with the type model's nested leaf paths) with their types, searchable; a path typed in the search that is not listed (a
 * field no sampled record has yet, `values.0`) can be picked as it is.
 */
export function FieldSelect({ fields, typing, label, value, ...rest }: Props) {
  const [search, setSearch] = useState('');
  const picked: string[] = value === undefined || value === null ? [] : Array.isArray(value) ? (value as string[]) : [String(value)];
  const options = useMemo(() => {
    const all = [...fields];
    for (const p of picked) if (!all.includes(p)) all.push(p);
    const typed = search.trim();
    const extra = typed && !all.includes(typed) && !pathProblem(typed) ? [typed] : [];
    return [
      ...all.map((f) => ({ value: f, title: `${label(f)} ${f}`, label: <FieldOption field={f} label={label(f)} type={fieldTypeOf(typing, f)} /> })),
      ...extra.map((f) => ({ value: f, title: f, label: <span data-field-option={f}>Use the path <Typography.Text code>{f}</Typography.Text></span> })),
    ];
    // `picked` is derived from `value`, compared by its text.
  }, [fields, typing, label, search, JSON.stringify(picked)]);
  return (
    <Select
      {...rest}
      value={value}
      showSearch
      searchValue={search}
      onSearch={setSearch}
      onSelect={(v, option) => {
        setSearch('');
        rest.onSelect?.(v, option);
      }}
      onBlur={(e) => {
        setSearch('');
        rest.onBlur?.(e);
      }}
      filterOption={(input, option) => {
        const q = input.trim().toLowerCase();
        return String(option?.title ?? '').toLowerCase().includes(q) || String(option?.value ?? '').toLowerCase() === q;
      }}
      options={options}
    />
  );
}
