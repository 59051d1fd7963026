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
  };
}

/**
 * Outcomes of the last days as stacked bars (delivered, failed, returned) with the median time to
 * deliver as a line, in an SVG that scales to its card; the same figures in a table for screen
 * readers (the SVG is hidden from them).
 */
export function OutcomeChart({ days, labels }: { days: ChartDay[]; labels: ChartLabels }) {
  const width = 700;
  const height = 200;
  // The SVG scales to its card: on a phone (about half the width) its day labels are drawn
  // twice as large, every fourth day from the third (none cut at the edges), so they stay
  // readable (12 px text would be 6 px there).
  const smDown = useSmallScreen();
  const fontSize = smDown ? 24 : 12;
  const labelled = (i: number) => (smDown ? i % 4 === 2 : i % 2 === 0);
  const pad = { top: 12, bottom: fontSize + 12, left: 4, right: 4 };
  const plotH = height - pad.top - pad.bottom;
  const slot = (width - pad.left - pad.right) / Math.max(1, days.length);
  const maxCount = Math.max(1, ...days.map((d) => d.delivered + d.failed + d.returned));
  const maxMedian = Math.max(1, ...days.map((d) => d.medianMinutes ?? 0));
  const y = (count: number) => (count / maxCount) * plotH;
  const medianPoints = days
    .map((d, i) =>
      d.medianMinutes === null
        ? null
        : `${pad.left + slot * i + slot / 2},${pad.top + plotH - (d.medianMinutes / maxMedian) * plotH}`,
    )
    .filter((p): p is string => p !== null);
  const withMedian = days.filter((d) => d.medianMinutes !== null);
  const overall =
    withMedian.length === 0
      ? null
      : [...withMedian].sort((a, b) => a.medianMinutes! - b.medianMinutes!)[withMedian.length >> 1]!
          .medianMinutes!;
  return (
    <BlockStack gap="200">
      <svg
        viewBox={`0 0 ${width} ${height}`}
        width="100%"
        role="img"
        aria-hidden="true"
        style={{ display: "block", maxWidth: "100%", height: "auto" }}
      >
        {days.map((d, i) => {
          const x = pad.left + slot * i + slot * 0.2;
          const w = slot * 0.6;
          let top = pad.top + plotH;
          return (
            <g key={d.date}>
              {(["delivered", "failed", "returned"] as const).map((kind) => {
                const h = y(d[kind]);
                top -= h;
                return h > 0 ? (
                  <rect key={kind} x={x} y={top} width={w} height={h} fill={COLORS[kind]} />
                ) : null;
              })}
              {labelled(i) && (
                <text
                  x={pad.left + slot * i + slot / 2}
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
        {medianPoints.length > 1 && (
          <polyline
            points={medianPoints.join(" ")}
            fill="none"
            stroke="var(--p-color-text, #303030)"
            strokeWidth="2"
            strokeDasharray="4 3"
          />
        )}
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
          {`- - ${labels.median}: ${overall === null ? labels.none : labels.duration(overall)}`}
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
