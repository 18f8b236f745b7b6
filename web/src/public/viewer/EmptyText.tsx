import { Flex } from 'antd';

/** Title and text of an empty state, worded for the viewer. */
export function EmptyText({ title, text }: { title: string; text: string }) {
  return (
    <Flex vertical gap={4} align="center">
      <strong>{title}</strong>
      <span>{text}</span>
    </Flex>
  );
}
