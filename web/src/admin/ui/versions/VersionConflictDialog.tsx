import { Button, Flex, Modal, Typography } from 'antd';
import { useState } from 'react';
import { errorText } from '../../../api/client';
import { isVersionConflict, loadTheirs, saveDashboard, useDashboardSaves } from '../../stores/dashboardSave';
import { useToast } from '../toast';
import { VersionDiff } from './VersionDiff';
import { authorName, savedAt } from './words';

/**
 * Shown when a save was refused because someone else saved the dashboard after the edit began: who,
 * when and what they changed; then load theirs (the edits are given up), see what changed, save
 * mine over theirs, or keep editing. Until one is chosen the edits stay where they were typed.
 */
export function VersionConflictDialog({ discardEdits }: { discardEdits(): void }) {
  const conflict = useDashboardSaves((s) => s.conflict);
  const [showDiff, setShowDiff] = useState(false);
  const [busy, setBusy] = useState<'theirs' | 'mine' | null>(null);
  const toast = useToast();
  if (!conflict) return null;
  const { current } = conflict;
  const close = () => {
    setShowDiff(false);
    useDashboardSaves.setState({ conflict: null });
  };
  const run = async (which: 'theirs' | 'mine', call: () => Promise<void>) => {
    setBusy(which);
    try {
      await call();
      setShowDiff(false);
    } catch (e) {
      // A new conflict (someone saved again) replaces this one in the dialog; anything else is said.
      if (!isVersionConflict(e)) toast.error('Not saved', errorText(e));
    } finally {
      setBusy(null);
    }
  };
  const who = authorName(current.author);
  return (
    <Modal
      open
      width={640}
      title={`${who} saved "${conflict.dashboardName}" while you were editing`}
      onCancel={close}
      rootClassName="version-conflict"
      footer={
        <Flex gap={8} justify="flex-end" wrap>
          <Button onClick={close}>Keep editing</Button>
          <Button onClick={() => setShowDiff((v) => !v)} aria-expanded={showDiff}>{showDiff ? 'Hide what changed' : 'See what changed'}</Button>
          <Button danger loading={busy === 'theirs'} onClick={() => void run('theirs', () => loadTheirs(conflict.dashboardId, discardEdits).then(() => toast.info('Their version is loaded', 'Your unsaved changes were discarded.')))}>
            Load theirs
          </Button>
          <Button
            type="primary"
            loading={busy === 'mine'}
            onClick={() =>
              void run('mine', async () => {
                await saveDashboard({ id: conflict.dashboardId, name: conflict.dashboardName, version: current.version }, conflict.patch, { ifMatch: current.version });
                useDashboardSaves.setState({ conflict: null });
                toast.success('Your changes are saved', `They replace version ${current.version} by ${who}.`);
              })}
          >
            Save mine over theirs
          </Button>
        </Flex>
      }
    >
      <Typography.Paragraph>
        Your save was not made: the dashboard is at version {current.version} now, saved by <strong>{who}</strong> on {savedAt(current.createdAt)}
        {current.message ? <> ("{current.message}")</> : null} — {current.summary}.
      </Typography.Paragraph>
      <Typography.Paragraph type="secondary">
        Your changes are still in the editor. Load theirs to start again from their version, or save yours over theirs.
      </Typography.Paragraph>
      {showDiff && <VersionDiff dashboardId={conflict.dashboardId} from={conflict.base} to={current.version} />}
    </Modal>
  );
}
