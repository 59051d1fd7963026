import { editDistance } from "./edit-distance";
import { tokenize, type Token } from "./tokens";

export type Direction = "north" | "south" | "east" | "west";

// Direction words as shoppers write them next to an area name: English, transliterated and Arabic
// ("Jnoob Alsurra", "Gharb Mishref", "Mishref West", «شمال غرب الصليبيخات», «الصباحية الجنوبية»). One-letter abbreviations
// ("S. Surra", "W. Abdullah Al Mubarak") count only in front of a name that has such a part.
// prettier-ignore
const DIRECTION_WORDS: Record<Direction, readonly string[]> = {
  south: ["south", "southern", "janoub", "janoob", "janub", "jnoob", "jnoub", "jnub", "jenoub", "jenub", "junub", "ganoub", "janoubi", "janoobi", "جنوب", "جنوبي", "جنوبيه"],
  north: ["north", "northern", "shamal", "shmal", "shimal", "shamali", "شمال", "شمالي", "شماليه"],
  west: ["west", "western", "gharb", "garb", "ghareb", "gharab", "gharbi", "غرب", "غربي", "غربيه"],
  east: ["east", "eastern", "sharq", "sharg", "shark", "sharqi", "شرق", "شرقي", "شرقيه"],
};
const DIRECTION_LETTERS: Record<string, Direction> = {
  s: "south",
  n: "north",
  w: "west",
  e: "east",
};
const ENGLISH_DIRECTIONS: readonly Direction[] = ["south", "north", "west", "east"];

const directionBySkeleton = new Map<string, Direction>();
for (const [direction, words] of Object.entries(DIRECTION_WORDS) as [Direction, string[]][]) {
  for (const word of words) {
    const token = tokenize(word)[0];
    if (token !== undefined) directionBySkeleton.set(token.skel, direction);
  }
}

/** How a direction was written: a known word, a one-letter typo of one ("Sourth"), or a letter. */
export type DirectionForm = "word" | "typo" | "letter";

/**
 * The direction a word names, if any. Typos and one-letter abbreviations only count when the
 * area named next has a part in that direction.
 */
export function directionOf(
  token: Token,
): { direction: Direction; form: DirectionForm } | undefined {
  if (token.kind !== "word" || token.article) return undefined;
  const known = directionBySkeleton.get(token.skel);
  if (known !== undefined) return { direction: known, form: "word" };
  if (token.arabic) return undefined;
  const letter = DIRECTION_LETTERS[token.norm];
  if (letter !== undefined) return { direction: letter, form: "letter" };
  if (token.norm.length < 4) return undefined;
  const typo = ENGLISH_DIRECTIONS.find(
    (word) => word[0] === token.norm[0] && editDistance(token.norm, word, 1) <= 1,
  );
  return typo === undefined ? undefined : { direction: typo, form: "typo" };
}

// Two words make one direction: "Shamal Gharb" is north west.
export function directionPhrase(directions: readonly Direction[]): string | undefined {
  if (directions.length === 1) return directions[0];
  const [first, second] = directions;
  if (
    (first === "north" || first === "south") &&
    (second === "east" || second === "west") &&
    directions.length === 2
  )
    return `${first} ${second}`;
  return undefined;
}

// The direction phrases the area index reads for every area, in English and in Arabic («غرب مشرف»).
export const ARABIC_DIRECTION: Record<Direction, string> = {
  north: "شمال",
  south: "جنوب",
  east: "شرق",
  west: "غرب",
};
export const DIRECTION_PHRASES: readonly Direction[][] = [
  ["north"],
  ["south"],
  ["east"],
  ["west"],
  ["north", "west"],
  ["north", "east"],
  ["south", "west"],
  ["south", "east"],
];
