import { Button, Flex, Result } from 'antd';
import { useNavigate } from 'react-router-dom';
import { useDocumentTitle } from '../useDocumentTitle';

/** Any path the router does not know. */
export default function NotFoundPage() {
  const navigate = useNavigate();
  useDocumentTitle('Page Not Found');
  return (
    <Flex align="center" justify="center" style={{ minHeight: '100vh', padding: 16 }}>
      <Result
        status="404"
        title="404 Page Not Found"
        subTitle="Did you forget to add the page to the router?"
        extra={
          <Flex gap={8} justify="center" wrap>
            <Button type="primary" onClick={() => navigate('/')}>Back to Home</Button>
            <Button onClick={() => navigate('/dashboards')}>Public Dashboards</Button>
          </Flex>
        }
      />
    </Flex>
  );
}
