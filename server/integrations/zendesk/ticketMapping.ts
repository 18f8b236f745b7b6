/** Zendesk shapes we read, and how a ticket becomes a record of the integration's data source. */

export interface ZendeskTicket {
  id: number;
  subject: string | null;
  status: string;
  custom_status_id?: number | null;
  priority: string | null;
  type: string | null;
  requester_id: number | null;
  assignee_id: number | null;
  organization_id: number | null;
  tags?: string[];
  custom_fields?: { id: number; value: unknown }[];
  created_at: string;
  updated_at: string;
}

export interface ZendeskUser {
  id: number;
  name: string;
  email?: string | null;
  role?: string;
  organization_id?: number | null;
}

export interface ZendeskOrganization {
  id: number;
  name: string;
}

export interface ZendeskCustomStatus {
  id: number;
  status_category: string;
  agent_label: string;
  end_user_label?: string;
  active?: boolean;
}

export interface ZendeskTicketField {
  id: number;
  type: string;
  title: string;
  active?: boolean;
}

/** Field types Zendesk uses for its built-in ticket fields (not custom ones). */
const SYSTEM_FIELD_TYPES = new Set(['subject', 'description', 'status', 'custom_status', 'tickettype', 'priority', 'group', 'assignee', 'brand', 'requester']);

/** Labels of the record's standard fields, in record order. */
export const STANDARD_LABELS: Record<string, string> = {
  id: 'Ticket ID',
  subject: 'Subject',
  status: 'Status',
  status_category: 'Status Category',
  priority: 'Priority',
  type: 'Type',
  requester: 'Requester',
  assignee: 'Assignee',
  organization: 'Organization',
  tags: 'Tags',
  created_at: 'Created At',
  updated_at: 'Updated At',
  requester_id: 'Requester ID',
  assignee_id: 'Assignee ID',
  organization_id: 'Organization ID',
};

/** keyMappings for the data source: standard labels plus `custom_<id>` → the custom field's title. */
export function keyMappingsFromFields(fields: ZendeskTicketField[]): Record<string, string> {
  const map: Record<string, string> = { ...STANDARD_LABELS };
  for (const f of fields) {
    if (SYSTEM_FIELD_TYPES.has(f.type)) continue;
    map[`custom_${f.id}`] = String(f.title).slice(0, 200);
  }
  return map;
}

export interface NameLookups {
  users: Map<number, string>;
  organizations: Map<number, string>;
  statuses: Map<number, string>;
}

const cap = (s: string) => (s ? s[0].toUpperCase() + s.slice(1) : s);

/** The record stored for a ticket: names resolved, custom fields kept as [{id, value}]. */
export function ticketToRecord(t: ZendeskTicket, names: NameLookups): Record<string, unknown> {
  const statusLabel = (t.custom_status_id && names.statuses.get(t.custom_status_id)) || cap(t.status);
  return {
    id: t.id,
    subject: t.subject ?? '',
    status: statusLabel,
    status_category: t.status,
    priority: t.priority ?? null,
    type: t.type ?? null,
    requester: t.requester_id ? (names.users.get(t.requester_id) ?? null) : null,
    assignee: t.assignee_id ? (names.users.get(t.assignee_id) ?? null) : null,
    organization: t.organization_id ? (names.organizations.get(t.organization_id) ?? null) : null,
    tags: [...(t.tags ?? [])],
    created_at: t.created_at,
    updated_at: t.updated_at,
    requester_id: t.requester_id ?? null,
    assignee_id: t.assignee_id ?? null,
    organization_id: t.organization_id ?? null,
    custom_fields: (t.custom_fields ?? []).map((f) => ({ id: f.id, value: f.value ?? null })),
  };
}
