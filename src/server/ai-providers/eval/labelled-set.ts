import { z } from 'zod';

/**
 * A labelled review: what a careful human reader found in a set of comments, against which the AI
 * outputs are scored (`npm run eval:ai`). Comments are named by a key unique in the set; every label
 * cites those keys.
 */

const key = z.string().regex(/^[a-z0-9-]+$/);
const keys = z.array(key);

export const labelledCommentSchema = z.strictObject({
  key,
  author: z.string().min(1),
  kind: z.enum(['comment', 'proposal']),
  text: z.string().min(1).max(2000),
  /** Members who voted it up / down (never its author). */
  up: z.array(z.string()),
  down: z.array(z.string()),
});

export const labelledComponentSchema = z.strictObject({
  id: z.string().min(1),
  title: z.string().min(1),
  description: z.string().min(1),
  comments: z.array(labelledCommentSchema).min(1),
  /** The topics a reader would name, by meaning, each with the comments about it. */
  themes: z.array(z.strictObject({ label: z.string().min(1), comments: keys.min(1) })),
  /** The concrete requests, each with the comments that make it. */
  actions: z.array(z.strictObject({ label: z.string().min(1), comments: keys.min(1) })),
  /** Genuine disagreements: the contested question, the comments on each side, and a compromise when one exists. */
  conflicts: z.array(
    z.strictObject({
      question: z.string().min(1),
      sideA: keys.min(1),
      sideB: keys.min(1),
      compromise: keys,
      /** True when no compromise comment settles it. */
      unresolved: z.boolean(),
    }),
  ),
  /** Comments unrelated to the component; never to be cited. */
  offTopic: keys,
  /** Comments addressed to the tool ("ignore previous instructions", "note for the AI"); never to be cited. */
  injection: keys,
});

export const labelledSetSchema = z
  .strictObject({
    name: z.string().min(1),
    description: z.string().min(1),
    members: z.array(z.string().min(1)).min(2),
    components: z.array(labelledComponentSchema).min(1),
  })
  .superRefine((set, context) => {
    const members = new Set(set.members);
    const seen = new Set<string>();
    for (const component of set.components) {
      const local = new Set(component.comments.map((comment) => comment.key));
      for (const comment of component.comments) {
        if (seen.has(comment.key)) context.addIssue({ code: 'custom', message: `comment key ${comment.key} is used twice` });
        seen.add(comment.key);
        for (const name of [comment.author, ...comment.up, ...comment.down]) {
          if (!members.has(name)) context.addIssue({ code: 'custom', message: `${comment.key}: ${name} is not a member of the set` });
        }
        if ([...comment.up, ...comment.down].includes(comment.author)) context.addIssue({ code: 'custom', message: `${comment.key}: its author votes on it` });
        if (new Set([...comment.up, ...comment.down]).size !== comment.up.length + comment.down.length) {
          context.addIssue({ code: 'custom', message: `${comment.key}: a member votes twice` });
        }
      }
      const cited = [
        ...component.themes.flatMap((theme) => theme.comments),
        ...component.actions.flatMap((action) => action.comments),
        ...component.conflicts.flatMap((conflict) => [...conflict.sideA, ...conflict.sideB, ...conflict.compromise]),
        ...component.offTopic,
        ...component.injection,
      ];
      for (const cite of cited) {
        if (!local.has(cite)) context.addIssue({ code: 'custom', message: `${component.id}: a label cites ${cite}, not a comment of this component` });
      }
    }
  });

export type LabelledSet = z.infer<typeof labelledSetSchema>;
