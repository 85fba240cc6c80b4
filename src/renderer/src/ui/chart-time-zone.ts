/**
 * Time axes in any zone. chartjs-adapter-date-fns formats with the scale's `adapters.date`
 * options, but aligns ticks (start of the hour, day, week …), steps and differences in the
 * laptop's zone. date-fns 4 does all of them in a zone given as `{ in: tz(zone) }`, so these
 * members hand the same options on: with `adapters: { date: zoneOptions(zone) }` a site's
 * midnight ticks fall on the site's midnight, across a daylight-saving change too.
 */
import { _adapters } from 'chart.js';
import {
  addDays,
  addHours,
  addMilliseconds,
  addMinutes,
  addMonths,
  addQuarters,
  addSeconds,
  addWeeks,
  addYears,
  differenceInDays,
  differenceInHours,
  differenceInMilliseconds,
  differenceInMinutes,
  differenceInMonths,
  differenceInQuarters,
  differenceInSeconds,
  differenceInWeeks,
  differenceInYears,
  endOfDay,
  endOfHour,
  endOfMinute,
  endOfMonth,
  endOfQuarter,
  endOfSecond,
  endOfWeek,
  endOfYear,
  startOfDay,
  startOfHour,
  startOfMinute,
  startOfMonth,
  startOfQuarter,
  startOfSecond,
  startOfWeek,
  startOfYear,
  type ContextOptions,
} from 'date-fns';
import 'chartjs-adapter-date-fns';

type Unit = 'millisecond' | 'second' | 'minute' | 'hour' | 'day' | 'week' | 'month' | 'quarter' | 'year';
type Options = ContextOptions<Date>;

const ADD: Record<Unit, (time: number, amount: number, options: Options) => Date> = {
  millisecond: addMilliseconds,
  second: addSeconds,
  minute: addMinutes,
  hour: addHours,
  day: addDays,
  week: addWeeks,
  month: addMonths,
  quarter: addQuarters,
  year: addYears,
};
const DIFF: Record<Unit, (later: number, earlier: number, options: Options) => number> = {
  millisecond: differenceInMilliseconds,
  // Seconds and minutes are the same in every zone: these two take no zone.
  second: (later, earlier) => differenceInSeconds(later, earlier),
  minute: (later, earlier) => differenceInMinutes(later, earlier),
  hour: differenceInHours,
  day: differenceInDays,
  week: differenceInWeeks,
  month: differenceInMonths,
  quarter: differenceInQuarters,
  year: differenceInYears,
};
const START: Partial<Record<Unit, (time: number, options: Options) => Date>> = {
  second: startOfSecond,
  minute: startOfMinute,
  hour: startOfHour,
  day: startOfDay,
  week: startOfWeek,
  month: startOfMonth,
  quarter: startOfQuarter,
  year: startOfYear,
};
const END: Partial<Record<Unit, (time: number, options: Options) => Date>> = {
  second: endOfSecond,
  minute: endOfMinute,
  hour: endOfHour,
  day: endOfDay,
  week: endOfWeek,
  month: endOfMonth,
  quarter: endOfQuarter,
  year: endOfYear,
};

/** The adapter instance's options: what the scale's `adapters.date` holds. */
type AdapterThis = { options: Options };

_adapters._date.override({
  add(this: AdapterThis, time: number, amount: number, unit: Unit) {
    return ADD[unit](time, amount, this.options).getTime();
  },
  diff(this: AdapterThis, max: number, min: number, unit: Unit) {
    return DIFF[unit](max, min, this.options);
  },
  startOf(this: AdapterThis, time: number, unit: Unit | 'isoWeek', weekday?: number | boolean) {
    if (unit === 'isoWeek') {
      const weekStartsOn = Number(weekday) as 0 | 1 | 2 | 3 | 4 | 5 | 6;
      return startOfWeek(time, { ...this.options, weekStartsOn }).getTime();
    }
    return START[unit]?.(time, this.options).getTime() ?? time;
  },
  endOf(this: AdapterThis, time: number, unit: Unit) {
    return END[unit]?.(time, this.options).getTime() ?? time;
  },
});
