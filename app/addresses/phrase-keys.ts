import { tokenize, type Token } from "./tokens";

function contentTokens(tokens: readonly Token[]): Token[] {
  return tokens.filter(
    (token) => (token.kind === "word" || token.kind === "number") && !token.article,
  );
}

// Keys concatenate the words: "Abu Halifa" and "Abuhalifa" share one.
export function phraseKeys(text: string): { key: string; skel: string; words: number } {
  const words = contentTokens(tokenize(text));
  return {
    key: words.map((token) => token.key).join(""),
    skel: words.map((token) => token.skel).join(""),
    words: words.length,
  };
}

/** The skeletons of the words of a name, articles left out. */
export function phraseWords(text: string): string[] {
  return contentTokens(tokenize(text)).map((token) => token.skel);
}
