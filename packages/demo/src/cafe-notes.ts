/** The public notes the café agent summarises: bulky (over 8 KiB) and free of secrets. */
export const SUMMARISE_TOOL = 'model.summarise';

const paragraph =
  'Parser design notes. The configuration parser reads key=value lines, strips comments and ' +
  'validates every section against the schema before the agent uses it. ';
export const DEMO_NOTES = paragraph.repeat(60);
