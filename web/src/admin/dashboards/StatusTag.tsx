import { Tag } from 'antd';

/** Live (published) or Draft. */
export function StatusTag({ isPublished }: { isPublished: boolean }) {
  return isPublished ? <Tag color="green" data-testid="status-tag">Live</Tag> : <Tag data-testid="status-tag">Draft</Tag>;
}
