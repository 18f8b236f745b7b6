/** What a person may type to find a field in an option of a field select. */
interface FieldOption {
  value?: unknown;
  label?: unknown;
}

/**
 * The search of every field select in the editors: typing keeps the fields whose label or key
 * contains the text (any case), so typing "Major" then Enter picks a field with "Major" in it.
 */
export const FIELD_SEARCH = {
  filterOption: (input: string, option?: FieldOption) => {
    const q = input.trim().toLowerCase();
    return !q || [option?.label, option?.value].some((t) => typeof t === 'string' && t.toLowerCase().includes(q));
  },
};
