import { describe, expect, it } from 'vitest';
import { scheduleText } from '@common/time/reportSchedule';
import { checkSchedule, nextRunAfter } from '../schedule';

/** Schedules: the 5-minute floor of cron expressions, next slots in a time zone, and the words the list shows. */
describe('report schedules', () => {
  const refused = (cron: string) => {
    try {
      checkSchedule({ cron }, 'UTC');
    } catch (e) {
      return (e as { message: string; status: number }).status === 400 ? (e as Error).message : `not a 400: ${String(e)}`;
    }
    return null;
  };

  it('refuses a cron expression whose runs come closer than 5 minutes, naming the minimum', () => {
    expect(refused('* * * * *')).toMatch(/1 minute apart.*at most every 5 minutes/);
    expect(refused('*/4 * * * *')).toMatch(/4 minutes apart/);
    expect(refused('0,3 8 * * *')).toMatch(/3 minutes apart \(08:00 and 08:03\)/);
    // Across two hours that both run: 08:58 then 09:00.
    expect(refused('0,58 8,9 * * *')).toMatch(/2 minutes apart \(08:58 and 09:00\)/);
    // Across midnight: 23:59 then 00:00 the next day.
    expect(refused('0,59 0,23 * * *')).toMatch(/1 minute apart \(23:59 and 00:00\)/);
    expect(refused('*/5 * * * *')).toBeNull();
    expect(refused('0,58 8 * * *')).toBeNull(); // 08:58, then 08:00 the next day
    expect(refused('0 8 * * 1-5')).toBeNull();
  });

  it('refuses what is not a five-field cron expression, or never runs', () => {
    expect(refused('*/10 * * * * *')).toMatch(/five-field/);
    expect(refused('0 25 * * *')).toMatch(/five-field/);
    expect(refused('0 8 31 2 *')).toMatch(/never runs/);
  });

  it('counts the next slot in the schedule\'s time zone, after the time given (a missed run is made up once)', () => {
    const from = new Date('2026-03-02T07:59:00Z'); // a Monday, 08:59 in Berlin (CET)
    expect(nextRunAfter({ cron: '0 8 * * 1-5', timezone: 'Europe/Berlin' }, 'UTC', from)!.toISOString()).toBe('2026-03-03T07:00:00.000Z');
    expect(nextRunAfter({ cron: '0 8 * * 1-5' }, 'America/New_York', from)!.toISOString()).toBe('2026-03-02T13:00:00.000Z');
    expect(nextRunAfter({ everyMinutes: 5 }, 'UTC', new Date('2026-03-02T07:58:10Z'))!.toISOString()).toBe('2026-03-02T08:00:00.000Z');
    // Every day at local midnight (Berlin in summer: 22:00 UTC).
    expect(nextRunAfter({ everyMinutes: 1440 }, 'Europe/Berlin', new Date('2026-07-01T10:00:00Z'))!.toISOString()).toBe('2026-07-01T22:00:00.000Z');
    // Ten slots missed: the next one counts from now, once.
    const now = new Date('2026-03-02T08:00:30Z');
    expect(nextRunAfter({ everyMinutes: 5 }, 'UTC', now)!.toISOString()).toBe('2026-03-02T08:05:00.000Z');
  });

  it('says a schedule in words', () => {
    expect(scheduleText({ cron: '0 8 * * 1-5', timezone: 'Europe/Berlin' }, 'UTC')).toBe('every weekday at 08:00 Berlin');
    expect(scheduleText({ cron: '30 17 * * 5' }, 'America/New_York')).toBe('every Friday at 17:30 New York');
    expect(scheduleText({ cron: '0 8,17 * * *' }, 'UTC')).toBe('every day at 08:00 and 17:00 UTC');
    expect(scheduleText({ cron: '0 6 1 * *' }, 'Europe/London')).toBe('on day 1 of every month at 06:00 London');
    expect(scheduleText({ cron: '*/15 * * * *' }, 'UTC')).toBe('every 15 minutes');
    expect(scheduleText({ cron: '15 * * * *' }, 'UTC')).toBe('every hour at :15');
    expect(scheduleText({ cron: '0 8 1-7 * 1' }, 'UTC')).toBe('cron "0 8 1-7 * 1" (UTC)');
    expect(scheduleText({ everyMinutes: 5 }, 'UTC')).toBe('every 5 minutes');
    expect(scheduleText({ everyMinutes: 60 }, 'UTC')).toBe('every hour');
    expect(scheduleText({ everyMinutes: 1440 }, 'UTC')).toBe('every day');
    expect(scheduleText({ everyMinutes: 90 }, 'UTC')).toBe('every 90 minutes');
  });
});
