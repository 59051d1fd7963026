import { BlockStack, DatePicker, Text, type Range } from "@shopify/polaris";
import { useEffect, useState } from "react";
import { kuwaitDay } from "../domain/working-days";

/**
 * Days chosen on Polaris's calendar (the admin's own), for the list filters: the browser's date
 * box writes "mm/dd/yyyy" in the browser's language whatever the page's, the calendar speaks the
 * page's (Polaris's Arabic catalog) and starts its weeks on Sunday, as Kuwait's do. Days are
 * Kuwait days ("2026-11-28"); the calendar's dates are local midnights made from them and read back
 * the same way, so the browser's own time zone never moves a day.
 */

const toDate = (day: string) => {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(y!, m! - 1, d!);
};
const toDay = (date: Date) =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, "0")}-${String(
    date.getDate(),
  ).padStart(2, "0")}`;

/** A first and a last day (either may be open): one click picks a day, a second one a range. */
export function DayRangePicker(props: {
  label: string;
  from: string | undefined;
  to: string | undefined;
  onChange: (range: { from: string; to: string }) => void;
}) {
  // The range as clicked, at once: the second click of a range comes before the page has loaded
  // what the first one asked for, and must build on it, not on the days the page still shows.
  const [chosen, setChosen] = useState({ from: props.from, to: props.to });
  useEffect(() => setChosen({ from: props.from, to: props.to }), [props.from, props.to]);
  const first = chosen.from ?? chosen.to;
  return (
    <Calendar
      label={props.label}
      shown={props.to ?? props.from}
      selected={first ? { start: toDate(first), end: toDate(chosen.to ?? first) } : undefined}
      allowRange
      onChange={({ start, end }) => {
        const range = { from: toDay(start), to: toDay(end) };
        setChosen(range);
        props.onChange(range);
      }}
    />
  );
}

/** One day on the calendar. */
export function DayPicker(props: {
  label: string;
  day: string | undefined;
  onChange: (day: string) => void;
}) {
  return (
    <Calendar
      label={props.label}
      shown={props.day}
      selected={props.day ? toDate(props.day) : undefined}
      onChange={({ start }) => props.onChange(toDay(start))}
    />
  );
}

/** Polaris's calendar under a line saying how to use it, on the month of `shown` (or today's). */
function Calendar(props: {
  label: string;
  shown: string | undefined;
  selected: Date | Range | undefined;
  allowRange?: boolean;
  onChange: (range: Range) => void;
}) {
  const start = toDate(props.shown ?? kuwaitDay(new Date()));
  const [view, setView] = useState({ month: start.getMonth(), year: start.getFullYear() });
  return (
    <BlockStack gap="200">
      <Text as="p" tone="subdued">
        {props.label}
      </Text>
      <div data-day-picker>
        <DatePicker
          month={view.month}
          year={view.year}
          onMonthChange={(month, year) => setView({ month, year })}
          selected={props.selected}
          allowRange={props.allowRange}
          disableDatesAfter={toDate(kuwaitDay(new Date()))}
          onChange={props.onChange}
        />
      </div>
    </BlockStack>
  );
}
