/** Title and text of an empty state, worded for the viewer. */
export function EmptyText({ title, text }: { title: string; text: string }) {
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 4, alignItems: 'center' }}>
      <strong>{title}</strong>
      <span>{text}</span>
    </div>
  );
}
