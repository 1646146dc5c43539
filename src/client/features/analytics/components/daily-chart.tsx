import { useState } from 'react';
import type { DayTotals } from '../../../../common/contract/activity';
import { useElementWidth } from '../../../lib/use-element-width';
import { AXIS_CHAR_PX, countAxis, formatDay, formatDuration, labelInterval, timeAxis } from '../format';

// Colours of the series: brand indigo, sky and amber, each readable on white.
const COMMENTS = '#4f46e5';
const VOTES = '#0284c7';
const ACTIVE = '#d97706';
const TICK_TEXT = '#475569';
const GRID = '#e2e8f0';

/** The plot's height and the room around it, in pixels (the figure is h-72, 288 px, with the legend under it). */
const HEIGHT = 256;
const TOP = 8;
const BOTTOM = 24;
/** The least room between two day labels. */
const DAY_LABEL_GAP = 16;

const SERIES = [
  { name: 'Comments', colour: COMMENTS, kind: 'bar' },
  { name: 'Votes', colour: VOTES, kind: 'bar' },
  { name: 'Active time', colour: ACTIVE, kind: 'line' },
] as const;

/**
 * Comments and votes per day as bars on the left axis, active time as a line on the right axis, in
 * minutes or hours and minutes. Drawn as plain SVG from the figures: every position is worked out
 * here, so the first render measures nothing but the figure's width (a chart library measured each
 * label in the page, most of the analytics page's time on a phone). Pointing at a day shows its
 * figures; the same figures are a table on the page, for the keyboard and screen readers.
 */
export default function DailyChart({ days }: { days: readonly DayTotals[] }) {
  const [measure, width] = useElementWidth();
  const [pointed, setPointed] = useState<number | undefined>(undefined);
  const labels = days.map((day) => formatDay(day.day));
  const counts = countAxis(Math.max(0, ...days.map((day) => Math.max(day.comments, day.votes))));
  const time = timeAxis(Math.max(0, ...days.map((day) => day.activeTime)));
  const left = Math.max(...counts.ticks.map((tick) => String(tick).length)) * AXIS_CHAR_PX + 12;
  const right = Math.max(...time.ticks.map((tick) => time.label(tick).length)) * AXIS_CHAR_PX + 12;
  const plotWidth = Math.max(0, width - left - right);
  const band = days.length === 0 ? 0 : plotWidth / days.length;
  const bar = Math.max(1, (band * 0.7) / 2);
  const topCount = counts.ticks.at(-1) ?? 1;
  const topTime = time.ticks.at(-1) ?? 1;
  const yOfCount = (value: number) => TOP + (HEIGHT - TOP - BOTTOM) * (1 - value / topCount);
  const yOfTime = (value: number) => TOP + (HEIGHT - TOP - BOTTOM) * (1 - value / topTime);
  const xOf = (index: number) => left + band * (index + 0.5);
  const every = labelInterval(labels, plotWidth, DAY_LABEL_GAP) + 1;
  const line = days.map((day, index) => `${index === 0 ? 'M' : 'L'}${xOf(index).toFixed(1)},${yOfTime(day.activeTime).toFixed(1)}`).join('');
  const shown = pointed === undefined ? undefined : days[pointed];

  return (
    <figure ref={measure} aria-label="Comments, votes and active time per day" className="relative h-72 w-full" data-daily-chart="">
      {width > 0 && (
        <svg width={width} height={HEIGHT} aria-hidden="true" className="block" onPointerLeave={() => { setPointed(undefined); }}>
          {counts.ticks.map((tick) => (
            <g key={`count-${tick}`}>
              <line x1={left} x2={left + plotWidth} y1={yOfCount(tick)} y2={yOfCount(tick)} stroke={GRID} />
              <text x={left - 6} y={yOfCount(tick)} dy="0.32em" textAnchor="end" fontSize={12} fill={TICK_TEXT} data-axis="count">
                {tick}
              </text>
            </g>
          ))}
          {time.ticks.map((tick) => (
            <text key={`time-${tick}`} x={left + plotWidth + 6} y={yOfTime(tick)} dy="0.32em" fontSize={12} fill={TICK_TEXT} data-axis="time">
              {time.label(tick)}
            </text>
          ))}
          {days.map((day, index) => (
            <g key={day.day}>
              {pointed === index && <rect x={left + band * index} y={TOP} width={band} height={HEIGHT - TOP - BOTTOM} fill="#f1f5f9" />}
              <rect x={xOf(index) - bar} y={yOfCount(day.comments)} width={bar} height={yOfCount(0) - yOfCount(day.comments)} fill={COMMENTS} rx={2} data-series="comments" />
              <rect x={xOf(index)} y={yOfCount(day.votes)} width={bar} height={yOfCount(0) - yOfCount(day.votes)} fill={VOTES} rx={2} data-series="votes" />
              {index % every === 0 && (
                <text x={xOf(index)} y={HEIGHT - BOTTOM + 16} textAnchor="middle" fontSize={12} fill={TICK_TEXT} data-axis="day">
                  {labels[index]}
                </text>
              )}
            </g>
          ))}
          <path d={line} fill="none" stroke={ACTIVE} strokeWidth={2} data-series="active-time" />
          {days.map((day, index) => (
            <rect key={day.day} x={left + band * index} y={TOP} width={band} height={HEIGHT - TOP - BOTTOM} fill="transparent" onPointerEnter={() => { setPointed(index); }} />
          ))}
        </svg>
      )}
      {shown !== undefined && pointed !== undefined && (
        <div
          aria-hidden="true"
          className="pointer-events-none absolute top-2 rounded-md border border-slate-200 bg-white px-3 py-2 text-sm shadow-md"
          style={xOf(pointed) < width / 2 ? { left: xOf(pointed) + band / 2 + 8 } : { right: width - xOf(pointed) + band / 2 + 8 }}
        >
          <p className="font-medium text-slate-900">{labels[pointed]}</p>
          <p style={{ color: COMMENTS }}>Comments: {shown.comments}</p>
          <p style={{ color: VOTES }}>Votes: {shown.votes}</p>
          <p style={{ color: ACTIVE }}>Active time: {formatDuration(shown.activeTime)}</p>
        </div>
      )}
      <ul aria-label="Legend" className="mt-2 flex flex-wrap justify-center gap-x-5 gap-y-1 text-[13px] text-slate-700">
        {SERIES.map((series) => (
          <li key={series.name} className="flex items-center gap-1.5" data-legend="">
            {series.kind === 'bar' ? (
              <span aria-hidden="true" className="h-3 w-3 rounded-sm" style={{ backgroundColor: series.colour }} />
            ) : (
              <span aria-hidden="true" className="h-0.5 w-4" style={{ backgroundColor: series.colour }} />
            )}
            {series.name}
          </li>
        ))}
      </ul>
    </figure>
  );
}
