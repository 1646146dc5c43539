import { diffLines } from 'diff';
import { useMemo } from 'react';

interface DiffLine {
  kind: 'added' | 'removed' | 'same';
  text: string;
}

/** The changes as one entry per line (jsdiff groups runs of lines into one change). */
function linesOf(active: string, version: string): DiffLine[] {
  return diffLines(active, version).flatMap((change) => {
    const kind = change.added ? 'added' : change.removed ? 'removed' : 'same';
    // A change's value ends with the newline of its last line; that is no line of its own.
    const lines = change.value.replace(/\n$/, '').split('\n');
    return lines.map((text) => ({ kind, text }));
  });
}

const PREFIX = { added: '+', removed: '-', same: ' ' } as const;
const CLASSES = { added: 'bg-emerald-50 text-emerald-900', removed: 'bg-red-50 text-red-900', same: 'text-slate-700' } as const;
const SPOKEN = { added: 'Added: ', removed: 'Removed: ', same: '' } as const;

/** How a version differs from the active prompt: lines only it has (+), lines only the active one has (-), and the rest. */
export function PromptDiff({ active, version, label }: { active: string; version: string; label: string }) {
  const lines = useMemo(() => linesOf(active, version), [active, version]);
  return (
    <div role="region" aria-label={label} tabIndex={0} className="mt-3 max-h-96 overflow-auto rounded-lg border border-slate-200 bg-white font-mono text-xs">
      {lines.map((line, index) => (
        <div key={index} data-diff={line.kind} className={`flex px-3 py-0.5 whitespace-pre-wrap ${CLASSES[line.kind]}`}>
          <span aria-hidden="true" className="w-4 shrink-0 select-none">
            {PREFIX[line.kind]}
          </span>
          <span className="sr-only">{SPOKEN[line.kind]}</span>
          <span className="min-w-0 break-words">{line.text}</span>
        </div>
      ))}
    </div>
  );
}
