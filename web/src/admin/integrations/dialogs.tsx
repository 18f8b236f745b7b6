import { useEffect, useState } from 'react';
import { InputNumber, Modal, Radio, Select, Space, Typography } from 'antd';
import {
  AUTO_SYNC_DEFAULT_SECONDS, AUTO_SYNC_MAX_SECONDS, AUTO_SYNC_MIN_SECONDS, SCHEDULE_DEFAULT_MINUTES, SCHEDULE_OPTIONS_MINUTES,
  SYNC_RANGE_DEFAULT_MONTHS, SYNC_RANGE_MONTHS,
} from '@common/constants';

/** Remove Integration confirmation. */
export function RemoveDialog({ name, open, busy, onConfirm, onCancel }: { name: string; open: boolean; busy: boolean; onConfirm(): void; onCancel(): void }) {
  return (
    <Modal
      title="Remove Integration"
      open={open}
      okText="Remove"
      okButtonProps={{ danger: true, loading: busy }}
      onOk={onConfirm}
      onCancel={onCancel}
      data-testid="remove-integration-dialog"
    >
      <Typography.Paragraph>
        Are you sure you want to remove the integration &quot;{name}&quot;? Its data source and all synced records will be deleted. This action cannot be undone.
      </Typography.Paragraph>
    </Modal>
  );
}

/** Unix seconds `months` months ago, as the sync call wants it (a string). */
export function startDateFor(months: number, now = new Date()): string {
  const d = new Date(now);
  d.setMonth(d.getMonth() - months);
  return String(Math.floor(d.getTime() / 1000));
}

/** Initial Sync time range: 1, 2, 3, 6 or 12 months, default 6. */
export function SyncRangeDialog({ open, onStart, onCancel }: { open: boolean; onStart(startDate: string): void; onCancel(): void }) {
  const [months, setMonths] = useState<number>(SYNC_RANGE_DEFAULT_MONTHS);
  useEffect(() => {
    if (open) setMonths(SYNC_RANGE_DEFAULT_MONTHS);
  }, [open]);
  return (
    <Modal title="Initial Sync" open={open} okText="Start Sync" onOk={() => onStart(startDateFor(months))} onCancel={onCancel} data-testid="sync-range-dialog">
      <Typography.Paragraph>Choose how far back to import Zendesk tickets. Later syncs only fetch what changed.</Typography.Paragraph>
      <Radio.Group value={months} onChange={(e) => setMonths(e.target.value as number)} optionType="button" buttonStyle="solid">
        {SYNC_RANGE_MONTHS.map((m) => (
          <Radio.Button key={m} value={m}>{m === 12 ? '12 months' : `${m} month${m > 1 ? 's' : ''}`}</Radio.Button>
        ))}
      </Radio.Group>
    </Modal>
  );
}

/** Enable Auto Sync: a frequency in whole seconds, at least 30 (the scheduler's floor). */
export function AutoSyncDialog({ open, busy, onSave, onInvalid, onCancel }: { open: boolean; busy: boolean; onSave(seconds: number): void; onInvalid(): void; onCancel(): void }) {
  // What the admin typed: the input does not report (and on blur clamps) values outside 30–86400,
  // so without this "10" would silently become 30 instead of being refused.
  const [typed, setTyped] = useState<string>(String(AUTO_SYNC_DEFAULT_SECONDS));
  useEffect(() => {
    if (open) setTyped(String(AUTO_SYNC_DEFAULT_SECONDS));
  }, [open]);
  const save = () => {
    const seconds = typed.trim() === '' ? Number.NaN : Number(typed);
    if (!Number.isInteger(seconds) || seconds < AUTO_SYNC_MIN_SECONDS || seconds > AUTO_SYNC_MAX_SECONDS) return onInvalid();
    onSave(seconds);
  };
  return (
    <Modal title="Enable Auto Sync" open={open} okText="Enable" okButtonProps={{ loading: busy }} onOk={save} onCancel={onCancel} data-testid="auto-sync-dialog">
      <Typography.Paragraph>New and changed Zendesk tickets are fetched automatically at this frequency.</Typography.Paragraph>
      <Space>
        <InputNumber
          aria-label="Sync frequency in seconds"
          min={String(AUTO_SYNC_MIN_SECONDS)}
          max={String(AUTO_SYNC_MAX_SECONDS)}
          precision={0}
          changeOnBlur={false}
          value={typed}
          stringMode
          onInput={setTyped}
          onChange={(v) => setTyped(v === null ? '' : String(v))}
          data-testid="auto-sync-seconds"
        />
        <span>seconds (30 to 86400)</span>
      </Space>
    </Modal>
  );
}

const scheduleLabel = (m: number) => (m === 1440 ? 'Every day' : m === 60 ? 'Every hour' : `Every ${m} minutes`);

/** Configure Schedule: 5, 15, 30, 60 or 1440 minutes, default 30; saving really sets the interval. */
export function ScheduleDialog({ open, busy, currentSeconds, onSave, onCancel }: { open: boolean; busy: boolean; currentSeconds: number | null; onSave(seconds: number): void; onCancel(): void }) {
  const initial = currentSeconds && SCHEDULE_OPTIONS_MINUTES.some((m) => m * 60 === currentSeconds) ? currentSeconds / 60 : SCHEDULE_DEFAULT_MINUTES;
  const [minutes, setMinutes] = useState<number>(initial);
  useEffect(() => {
    if (open) setMinutes(initial);
  }, [open, initial]);
  return (
    <Modal title="Configure Schedule" open={open} okText="Save Schedule" okButtonProps={{ loading: busy }} onOk={() => onSave(minutes * 60)} onCancel={onCancel} data-testid="schedule-dialog">
      <Typography.Paragraph>How often should this integration sync automatically? Saving turns auto sync on.</Typography.Paragraph>
      <Select
        style={{ width: 220 }}
        value={minutes}
        onChange={setMinutes}
        options={SCHEDULE_OPTIONS_MINUTES.map((m) => ({ value: m, label: scheduleLabel(m) }))}
        aria-label="Sync schedule"
      />
    </Modal>
  );
}
