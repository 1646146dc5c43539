import { Bar, CartesianGrid, ComposedChart, Legend, Line, Tooltip, XAxis, YAxis } from 'recharts';
import type { DayTotals } from '../../../../common/contract/activity';
import { formatDay, formatDuration, timeAxis } from '../format';

// Colours of the series: brand indigo, sky and amber, each readable on white.
const COMMENTS = '#4f46e5';
const VOTES = '#0284c7';
const ACTIVE = '#d97706';

interface ChartRow {
  label: string;
  comments: number;
  votes: number;
  /** Seconds; the right axis and the tooltip write them in minutes or hours and minutes. */
  activeTime: number;
}

function tooltipValue(value: unknown, name: unknown): string {
  if (typeof value !== 'number') return String(value);
  return name === 'Active time' ? formatDuration(value) : String(value);
}

/**
 * Comments and votes per day as bars on the left axis, active time as a line on the right axis.
 * Its own chunk (the page imports it lazily); the figures behind it are also a table on the page.
 */
export default function DailyChart({ days }: { days: readonly DayTotals[] }) {
  const rows: ChartRow[] = days.map((day) => ({ label: formatDay(day.day), comments: day.comments, votes: day.votes, activeTime: day.activeTime }));
  const axis = timeAxis(Math.max(0, ...days.map((day) => day.activeTime)));
  // Wide enough for the longest label at 12 px, so none is cut at the chart's edge.
  const timeAxisWidth = Math.max(...axis.ticks.map((tick) => axis.label(tick).length)) * 7 + 14;
  return (
    <figure aria-label="Comments, votes and active time per day" className="h-72 w-full">
      <ComposedChart responsive data={rows} margin={{ top: 8, right: 8, bottom: 0, left: -12 }} style={{ width: '100%', height: '100%' }}>
        <CartesianGrid stroke="#e2e8f0" vertical={false} />
        <XAxis dataKey="label" tick={{ fontSize: 12, fill: '#475569' }} tickLine={false} minTickGap={16} />
        <YAxis yAxisId="count" allowDecimals={false} tick={{ fontSize: 12, fill: '#475569' }} tickLine={false} axisLine={false} />
        <YAxis
          yAxisId="time"
          orientation="right"
          width={timeAxisWidth}
          ticks={axis.ticks}
          domain={[0, axis.ticks.at(-1) ?? 0]}
          tickFormatter={axis.label}
          tick={{ fontSize: 12, fill: '#475569' }}
          tickLine={false}
          axisLine={false}
        />
        <Tooltip formatter={(value, name) => tooltipValue(value, name)} />
        <Legend wrapperStyle={{ fontSize: 13 }} />
        <Bar yAxisId="count" dataKey="comments" name="Comments" fill={COMMENTS} radius={[3, 3, 0, 0]} isAnimationActive={false} />
        <Bar yAxisId="count" dataKey="votes" name="Votes" fill={VOTES} radius={[3, 3, 0, 0]} isAnimationActive={false} />
        <Line yAxisId="time" dataKey="activeTime" name="Active time" stroke={ACTIVE} strokeWidth={2} dot={false} type="monotone" isAnimationActive={false} />
      </ComposedChart>
    </figure>
  );
}
