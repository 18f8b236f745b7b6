import { Typography } from 'antd';
import { useCan } from '../../api/session';
import { navigateAdmin } from '../shell/nav';
import { useOutboundHostDraft } from '../stores/outboundHostDraft';

const WHERE = 'Settings › Outbound hosts';
/** "… allow 127.0.0.1:5199 under Settings › Outbound hosts", as the server words every outbound refusal. */
const ALLOW = /allow (\S+) under Settings › Outbound hosts/;

/**
 * A server message as it is, except that a refusal an admin can lift links to the place where
 * they lift it (with the host typed in); a person who is not an admin is told to ask one.
 */
export function OutboundHint({ text }: { text: string }) {
  const isAdmin = useCan('admin');
  const offer = useOutboundHostDraft((s) => s.offer);
  const m = ALLOW.exec(text);
  if (!m) return <>{text}</>;
  const at = text.indexOf(WHERE, m.index);
  const open = () => {
    offer(m[1]);
    navigateAdmin('published-dashboards', 'settings');
  };
  return (
    <>
      {text.slice(0, at)}
      {isAdmin ? <Typography.Link onClick={open} data-testid="outbound-settings-link">{WHERE}</Typography.Link> : WHERE}
      {text.slice(at + WHERE.length)}
      {!isAdmin && ' (an admin of your team can do it)'}
    </>
  );
}
