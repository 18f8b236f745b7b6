import { useLayoutEffect, useState } from 'react';
import { Alert, Button, Flex, Form, Input, Modal, Result, Steps, Typography } from 'antd';
import type { IntegrationDto } from '@common/schemas/integration';
import { useSubmit } from '../../../api/useSubmit';
import { useToast } from '../../ui/toast';
import { integrationsApi } from '../api';
import { useIntegrations } from '../store';
import { PendingIntegrations } from '../PendingIntegrations';
import { useOAuthPopup } from './useOAuthPopup';
import { useSubmitValidation } from '../../ui/submitValidation';

export type WizardStep = 'setup' | 'details' | 'config' | 'authorize' | 'complete';
const STEPS: WizardStep[] = ['setup', 'details', 'config', 'authorize', 'complete'];
const TITLES = ['Setup', 'Details', 'Configure', 'Authorize', 'Complete'];

export interface WizardStart {
  step: WizardStep;
  integration: IntegrationDto | null;
}

interface ConfigForm {
  clientId: string;
  clientSecret: string;
  hostUrl: string;
  redirectUri: string;
  scope: string;
}

const callbackUrl = () => `${window.location.origin}/api/integrations/zendesk/callback`;

/** The Zendesk OAuth setup wizard: setup → details → config → authorize → complete. */
export function OAuthWizard({ start, onClose }: { start: WizardStart | null; onClose(): void }) {
  const toast = useToast();
  const openPopup = useOAuthPopup();
  const [step, setStep] = useState<WizardStep>('setup');
  const [integration, setIntegration] = useState<IntegrationDto | null>(null);
  const [authUrl, setAuthUrl] = useState<string | null>(null);
  const submit = useSubmit(toast);
  const [detailsForm] = Form.useForm<{ name: string; description: string }>();
  const detailsValidation = useSubmitValidation(start === null ? null : step);
  const configValidation = useSubmitValidation(start === null ? null : step);
  const [configForm] = Form.useForm<ConfigForm>();

  // Layout effect: the reset must land before the first paint, or a quick click on Next could be undone.
  useLayoutEffect(() => {
    if (!start) return;
    setStep(start.step);
    setIntegration(start.integration);
    setAuthUrl(null);
    detailsForm.resetFields();
    configForm.resetFields();
    configForm.setFieldsValue({ redirectUri: callbackUrl(), scope: 'read', hostUrl: start.integration?.config.hostUrl ?? '' });
  }, [start, detailsForm, configForm]);

  const createIntegration = (v: { name: string; description: string }) =>
    submit.run(async () => {
      const created = await integrationsApi.create({ name: v.name, description: v.description ?? '', type: 'zendesk' });
      useIntegrations.getState().upsert(created);
      setIntegration(created);
      setStep('config');
    }, { success: ['Integration Created', "Now let's configure your OAuth credentials"], failure: 'Error' });

  const saveConfig = async (v: ConfigForm) => {
    if (!integration) return;
    await submit.run(async () => {
      const res = await integrationsApi.configure({
        integrationId: integration.id, clientId: v.clientId, clientSecret: v.clientSecret, hostUrl: v.hostUrl, redirectUri: v.redirectUri || undefined, scope: v.scope || undefined,
      });
      if (!res?.authUrl) throw new Error('No authorization URL received from server');
      setAuthUrl(res.authUrl);
      setStep('authorize');
    }, { success: ['Configuration Saved', 'Now authorize access in Zendesk'], failure: 'Error' });
  };

  const authorize = () => {
    if (!authUrl || !integration) {
      toast.error('Popup Not Available', 'Please go back to configuration and try again');
      return;
    }
    openPopup(authUrl, integration.id, {
      onSuccess: () => {
        setStep('complete');
        void useIntegrations.getState().load();
      },
      onError: (error) => {
        toast.error('OAuth Error', `Failed to complete OAuth: ${error || 'Unknown error'}`);
        setStep('config');
        void useIntegrations.getState().load();
      },
      onCancel: () => {
        toast.error('OAuth Cancelled', 'Zendesk authorization was cancelled');
        setStep('config');
      },
      onBlocked: () => toast.error('Popup Blocked', 'Please allow popups for this site and try again'),
    });
  };

  const required = (message: string) => [{ required: true, whitespace: true, message }];

  return (
    <Modal title="Connect Zendesk" open={start !== null} onCancel={onClose} footer={null} width={640} destroyOnHidden data-testid="oauth-wizard">
      <Steps size="small" current={STEPS.indexOf(step)} items={TITLES.map((title) => ({ title }))} style={{ margin: '8px 0 24px' }} />

      {step === 'setup' && (
        <div data-testid="wizard-setup">
          {!integration && (
            <PendingIntegrations
              onResume={(it) => {
                setIntegration(it);
                configForm.setFieldsValue({ hostUrl: it.config.hostUrl ?? '' });
                setStep('config');
              }}
            />
          )}
          <Typography.Paragraph>Connect your Zendesk Support account with OAuth. You will need:</Typography.Paragraph>
          <ul>
            <li>An OAuth client from Zendesk Admin Center (Apps and integrations &gt; APIs &gt; OAuth Clients): its identifier and secret.</li>
            <li>Your Zendesk address, for example https://yourcompany.zendesk.com.</li>
            <li>This redirect URL registered on the client: <Typography.Text code copyable>{callbackUrl()}</Typography.Text></li>
          </ul>
          <Flex justify="end"><Button type="primary" onClick={() => setStep(integration ? 'config' : 'details')}>Next</Button></Flex>
        </div>
      )}

      {step === 'details' && (
        <Form {...detailsValidation} form={detailsForm} layout="vertical" onFinish={(v) => void createIntegration(v)} data-testid="wizard-details">
          <Form.Item name="name" label="Name" rules={required('Name is required')}><Input placeholder="Acme Support" /></Form.Item>
          <Form.Item name="description" label="Description"><Input.TextArea rows={2} placeholder="Tickets from our support desk" /></Form.Item>
          <Flex justify="space-between">
            <Button onClick={() => setStep('setup')}>Back</Button>
            <Button type="primary" htmlType="submit" loading={submit.busy}>Create Integration</Button>
          </Flex>
        </Form>
      )}

      {step === 'config' && (
        <Form {...configValidation} form={configForm} layout="vertical" onFinish={(v) => void saveConfig(v)} data-testid="wizard-config">
          {integration && <Alert type="info" showIcon style={{ marginBottom: 16 }} title={`Integration: ${integration.name}`} />}
          <Form.Item name="clientId" label="Client ID" rules={required('Client ID is required')}><Input autoComplete="off" /></Form.Item>
          <Form.Item name="clientSecret" label="Client Secret" rules={required('Client Secret is required')}><Input.Password autoComplete="new-password" /></Form.Item>
          <Form.Item name="hostUrl" label="Host URL" rules={required('Host URL is required')}><Input placeholder="https://yourcompany.zendesk.com" /></Form.Item>
          <Form.Item name="redirectUri" label="Redirect URI" extra="Register exactly this URL on the Zendesk OAuth client."><Input /></Form.Item>
          <Form.Item name="scope" label="Scope"><Input placeholder="read" /></Form.Item>
          <Flex justify="space-between">
            <Button onClick={() => setStep('setup')}>Back</Button>
            <Button type="primary" htmlType="submit" loading={submit.busy}>Save &amp; Continue</Button>
          </Flex>
        </Form>
      )}

      {step === 'authorize' && (
        <div data-testid="wizard-authorize">
          <Typography.Paragraph>
            A Zendesk window opens where you allow access. When you approve, this dialog moves on by itself.
          </Typography.Paragraph>
          <Flex justify="space-between">
            <Button onClick={() => setStep('config')}>Back</Button>
            <Button type="primary" onClick={authorize}>Authorize with Zendesk</Button>
          </Flex>
        </div>
      )}

      {step === 'complete' && (
        <Result
          status="success"
          title="Zendesk Connected"
          subTitle="The integration is active. Run an Initial Sync to import tickets."
          extra={<Button type="primary" onClick={onClose}>Done</Button>}
          data-testid="wizard-complete"
        />
      )}
    </Modal>
  );
}
