import type { ReportSchedule } from '../schemas/report';

/*
 * A report's schedule in words, for its list and the messages: "every weekday at 08:00 Berlin",
 * "every 15 minutes". The common shapes of a cron expression are said in words; any other is
 * shown as it is written.
 */

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** The place of a time zone as people say it: "Europe/Berlin" → "Berlin", "America/New_York" → "New York". */
export const zonePlace = (tz: string): string => (tz.includes('/') ? tz.slice(tz.lastIndexOf('/') + 1).replace(/_/g, ' ') : tz);

const plural = (n: number, one: string) => (n === 1 ? one : `${n} ${one}s`);

function everyMinutesText(n: number): string {
  if (n % 10_080 === 0) return `every ${plural(n / 10_080, 'week')}`;
  if (n % 1_440 === 0) return `every ${plural(n / 1_440, 'day')}`;
  if (n % 60 === 0) return `every ${plural(n / 60, 'hour')}`;
  return `every ${plural(n, 'minute')}`;
}

const num = (s: string) => (/^\d{1,2}$/.test(s) ? Number(s) : null);
const list = (s: string) => (/^\d{1,2}(,\d{1,2})*$/.test(s) ? s.split(',').map(Number) : null);
const two = (n: number) => String(n).padStart(2, '0');
const and = (words: string[]) => (words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`);

/** The days of a day-of-week field in words ("every weekday", "every Monday and Thursday"), or null for shapes said otherwise. */
function daysText(dow: string): string | null {
  if (dow === '*') return 'every day';
  if (dow === '1-5' || dow === 'MON-FRI' || dow === 'mon-fri') return 'every weekday';
  if (dow === '0,6' || dow === '6,0' || dow === '6-7' || dow === 'SAT,SUN') return 'every Saturday and Sunday';
  const days = list(dow);
  if (!days || days.some((d) => d > 7)) return null;
  return `every ${and([...new Set(days.map((d) => DAYS[d % 7]))])}`;
}

function cronText(expr: string, tz: string): string {
  const parts = expr.trim().split(/\s+/);
  const asWritten = `cron "${expr.trim()}" (${zonePlace(tz)})`;
  if (parts.length !== 5) return asWritten;
  const [m, h, dom, mon, dow] = parts;
  const step = /^\*\/(\d+)$/.exec(m);
  if (step && h === '*' && dom === '*' && mon === '*' && dow === '*') return everyMinutesText(Number(step[1]));
  const minute = num(m);
  if (minute === null || mon !== '*') return asWritten;
  if (h === '*' && dom === '*' && dow === '*') return minute === 0 ? 'every hour' : `every hour at :${two(minute)}`;
  const hours = list(h);
  if (!hours || hours.some((x) => x > 23)) return asWritten;
  const at = `at ${and(hours.map((x) => `${two(x)}:${two(minute)}`))} ${zonePlace(tz)}`;
  if (dom === '*') {
    const days = daysText(dow);
    return days ? `${days} ${at}` : asWritten;
  }
  const day = num(dom);
  if (day !== null && dow === '*') return `on day ${day} of every month ${at}`;
  return asWritten;
}

/** A schedule in words; `timezone` is the report's (a cron schedule without its own is read in it). */
export function scheduleText(schedule: ReportSchedule, timezone: string): string {
  if ('everyMinutes' in schedule) return everyMinutesText(schedule.everyMinutes);
  return cronText(schedule.cron, schedule.timezone ?? timezone);
}
