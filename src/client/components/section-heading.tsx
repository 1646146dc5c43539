/** The look of a heading and the line under it. */
export interface SectionHeadingClasses {
  /** The box around both, where the layout needs one (a width, centring). */
  box?: string;
  title: string;
  text: string;
}

/** A section's heading and the sentence under it, as the overview pages set them; the id names the section. */
export function SectionHeading({ id, level = 2, title, text, classes }: { id: string; level?: 2 | 3; title: string; text: string; classes: SectionHeadingClasses }) {
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <div className={classes.box}>
      <Heading id={id} className={classes.title}>
        {title}
      </Heading>
      <p className={classes.text}>{text}</p>
    </div>
  );
}
