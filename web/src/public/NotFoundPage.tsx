import { Result } from 'antd';

/** Any path the router does not know. */
export default function NotFoundPage() {
  return <Result status="404" title="404 Page Not Found" subTitle="Did you forget to add the page to the router?" />;
}
