/**
 * Functions still over the limit when the rule came in (issue 32), each with the length it may not
 * grow past. The list only shrinks: split a function and delete its line (the check fails on a line
 * whose function is now short or gone, so the list stays true). Keyed by file name and function
 * name, not the folder, so a file moved to another folder keeps its entry. Empty = the rule holds
 * everywhere.
 */
export const STILL_LONG: Readonly<Record<string, number>> = {}
