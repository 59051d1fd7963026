import { BlockStack, InlineStack, Text } from "@shopify/polaris";
import type { TFunction } from "i18next";
import type { Language } from "../i18n/config";
import { useSmallScreen } from "./small-screen";

export interface ChartDay {
  date: string;
  delivered: number;
  failed: number;
  returned: number;
  medianMinutes: number | null;
}

const COLORS = {
  delivered: "var(--p-color-bg-fill-success, #29845a)",
  failed: "var(--p-color-bg-fill-critical, #c70a24)",
  returned: "var(--p-color-bg-fill-caution, #ffb800)",
};

const GRID = {
  axis: "var(--p-color-border, #8a8a8a)",
  line: "var(--p-color-border-secondary, #ebebeb)",
  text: "var(--p-color-text-secondary, #616161)",
};

/**
 * The count axis: a round top at or above the largest day (at least 4, so a quiet fortnight
 * still reads as small numbers) and four or fewer steps of 1, 2 or 5 times a power of ten.
 */
export function countScale(max: number): { top: number; ticks: number[] } {
  const wanted = Math.max(4, max);
  const rough = wanted / 4;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough)!;
  const top = Math.ceil(wanted / step) * step;
  const ticks: number[] = [];
  for (let tick = 0; tick <= top; tick += step) ticks.push(tick);
  return { top, ticks };
}

export interface ChartLabels {
  title: string;
  dayHeading: string;
  delivered: string;
  failed: string;
  returned: string;
  median: string;
  /** "3 h 20 min" */
  duration: (minutes: number) => string;
  day: (date: string) => string;
  none: string;
  /** Said above the chart when no delivery finished in the whole period. */
  empty: string;
}

/** The chart's words in the page's language (the home namespace). */
export function chartLabels(t: TFunction, language: Language): ChartLabels {
  const dayFormat = new Intl.DateTimeFormat(language === "ar" ? "ar-KW-u-nu-latn" : "en-GB", {
    day: "numeric",
    month: "short",
    timeZone: "UTC",
  });
  return {
    title: t("home:chart.title"),
    dayHeading: t("home:chart.day"),
    delivered: t("home:chart.delivered"),
    failed: t("home:chart.failed"),
    returned: t("home:chart.returned"),
    median: t("home:chart.median"),
    duration: (minutes) => {
      const hours = Math.floor(minutes / 60);
      const rest = Math.round(minutes % 60);
      return hours > 0
        ? t("home:chart.hours", { hours, minutes: rest })
        : t("home:chart.minutes", { minutes: rest });
    },
    day: (date) => dayFormat.format(new Date(`${date}T00:00:00Z`)),
    none: t("home:chart.none"),
    empty: t("home:chart.empty"),
  };
}

/**
 * Outcomes of the last days as stacked bars (delivered, failed, returned) on a count axis, each
 * day's count above its bar, in an SVG that scales to its card, and the median time to deliver
 * in words; the same figures, with each day's median, in a table for screen readers (the SVG is
 * hidden from them).
 */
export function OutcomeChart({ days, labels }: { days: ChartDay[]; labels: ChartLabels }) {
  const width = 700;
  // The SVG scales to its card: on a phone (about half the width) its text is drawn twice as
  // large, the days every fourth from the third (none cut at the edges), so it stays readable
  // (12 px text would be 6 px there).
  const smDown = useSmallScreen();
  const fontSize = smDown ? 24 : 12;
  // Taller on a phone, so its bars (drawn at half scale) keep the height of a readable chart.
  const height = smDown ? 440 : 240;
  // Wide, every other day back from today, so today is named.
  const labelled = (i: number) => (smDown ? i % 4 === 2 : (days.length - 1 - i) % 2 === 0);
  const total = (d: ChartDay) => d.delivered + d.failed + d.returned;
  const scale = countScale(Math.max(0, ...days.map(total)));
  const pad = { top: fontSize + 10, bottom: fontSize + 14, left: fontSize * 3, right: 4 };
  const plotH = height - pad.top - pad.bottom;
  const baseline = pad.top + plotH;
  const slot = (width - pad.left - pad.right) / Math.max(1, days.length);
  const y = (count: number) => (count / scale.top) * plotH;
  const withMedian = days.filter((d) => d.medianMinutes !== null);
  const overall =
    withMedian.length === 0
      ? null
      : [...withMedian].sort((a, b) => a.medianMinutes! - b.medianMinutes!)[withMedian.length >> 1]!
          .medianMinutes!;
  const empty = days.every((d) => total(d) === 0);
  return (
    <BlockStack gap="200">
      {empty && (
        <Text as="p" tone="subdued">
          {labels.empty}
        </Text>
      )}
      {/* Numbers and days read left to right in both languages, like the figures above. */}
      <svg
        viewBox={`0 0 ${width} ${height}`}
        width="100%"
        role="img"
        aria-hidden="true"
        direction="ltr"
        style={{ display: "block", maxWidth: "100%", height: "auto" }}
      >
        {scale.ticks.map((tick) => (
          <g key={tick}>
            <line
              x1={pad.left}
              x2={width - pad.right}
              y1={baseline - y(tick)}
              y2={baseline - y(tick)}
              stroke={tick === 0 ? GRID.axis : GRID.line}
              strokeWidth={tick === 0 ? 1.5 : 1}
            />
            <text
              x={pad.left - 6}
              y={baseline - y(tick) + fontSize / 3}
              textAnchor="end"
              fontSize={fontSize}
              fill={GRID.text}
            >
              {tick}
            </text>
          </g>
        ))}
        {days.map((d, i) => {
          const x = pad.left + slot * i + slot * 0.2;
          const w = slot * 0.6;
          const centre = pad.left + slot * i + slot / 2;
          let top = baseline;
          return (
            <g key={d.date}>
              {(["delivered", "failed", "returned"] as const).map((kind) => {
                const h = y(d[kind]);
                top -= h;
                return h > 0 ? (
                  <rect key={kind} x={x} y={top} width={w} height={h} fill={COLORS[kind]} />
                ) : null;
              })}
              {/* Every day says its count, 0 too: an empty day is a day, not a gap. */}
              <text
                x={centre}
                y={top - 4}
                textAnchor="middle"
                fontSize={fontSize}
                fill={total(d) === 0 ? GRID.text : "currentColor"}
              >
                {total(d)}
              </text>
              {labelled(i) && (
                <text
                  x={centre}
                  y={height - 6}
                  textAnchor="middle"
                  fontSize={fontSize}
                  fill="currentColor"
                >
                  {labels.day(d.date)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <InlineStack gap="400" wrap>
        {(["delivered", "failed", "returned"] as const).map((kind) => (
          <InlineStack key={kind} gap="100" blockAlign="center">
            <span
              aria-hidden="true"
              style={{ width: 12, height: 12, background: COLORS[kind], display: "inline-block" }}
            />
            <Text as="span" variant="bodySm">
              {labels[kind]}
            </Text>
          </InlineStack>
        ))}
        <Text as="span" variant="bodySm">
          {`${labels.median}: ${overall === null ? labels.none : labels.duration(overall)}`}
        </Text>
      </InlineStack>
      <div className="Polaris-Text--visuallyHidden">
        <table>
          <caption>{labels.title}</caption>
          <thead>
            <tr>
              <th scope="col">{labels.dayHeading}</th>
              <th scope="col">{labels.delivered}</th>
              <th scope="col">{labels.failed}</th>
              <th scope="col">{labels.returned}</th>
              <th scope="col">{labels.median}</th>
            </tr>
          </thead>
          <tbody>
            {days.map((d) => (
              <tr key={d.date}>
                <th scope="row">{labels.day(d.date)}</th>
                <td>{d.delivered}</td>
                <td>{d.failed}</td>
                <td>{d.returned}</td>
                <td>{d.medianMinutes === null ? labels.none : labels.duration(d.medianMinutes)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </BlockStack>
  );
}
