/**
 * The `~` (CONTAINS) match of Jira's text fields, approximated the way its Lucene index behaves: words
 * match case-insensitively after a light plural stemming, English stop words are ignored, every
 * remaining term must occur (in any order), `"quoted phrases"` must occur as consecutive words, and
 * `*` / `?` are wildcards within a word (`migrat*`). Substrings of words do not match.
 */

const STOP_WORDS = new Set(
  "a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with".split(
    " ",
  ),
);

type Term = { kind: "word"; match: (token: string) => boolean } | { kind: "phrase"; words: string[] };

/** A compiled text query: `matches(text)` says whether a document contains it. */
export interface TextQuery {
  /** False when the query holds no searchable term (only stop words or punctuation). */
  searchable: boolean;
  matches(text: string): boolean;
}

export function compileTextQuery(query: string): TextQuery {
  const terms: Term[] = [];
  const parts = query.split('"');
  parts.forEach((part, index) => {
    const inPhrase = index % 2 === 1 && index < parts.length - 1;
    if (inPhrase) {
      const words = tokenizeText(part).filter((w) => !STOP_WORDS.has(w));
      if (words.length > 0) terms.push({ kind: "phrase", words: words.map(stem) });
      return;
    }
    for (const raw of part.toLowerCase().match(/[\p{L}\p{N}*?]+/gu) ?? []) {
      if (STOP_WORDS.has(raw) || /^[*?]+$/.test(raw)) continue;
      terms.push({ kind: "word", match: wordMatcher(raw) });
    }
  });
  return {
    searchable: terms.length > 0,
    matches(text: string) {
      if (terms.length === 0) return false;
      const tokens = tokenizeText(text);
      const stems = tokens.map(stem);
      const content = tokens.filter((w) => !STOP_WORDS.has(w)).map(stem);
      return terms.every((term) =>
        term.kind === "word"
          ? tokens.some((token, i) => term.match(token) || term.match(stems[i]!))
          : containsSequence(content, term.words),
      );
    },
  };
}

/** Lower-cased words (letters and digits) of a text. */
export function tokenizeText(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** A light English stemmer: plural endings only (`caches` → `cache`, `stories` → `story`). */
function stem(word: string): string {
  if (word.length > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith("s") && !/(ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

function wordMatcher(raw: string): (token: string) => boolean {
  if (!/[*?]/.test(raw)) {
    const target = stem(raw);
    return (token) => token === target;
  }
  const pattern = raw.replace(/\*/g, "[\\p{L}\\p{N}]*").replace(/\?/g, "[\\p{L}\\p{N}]");
  const regex = new RegExp(`^${pattern}$`, "u");
  return (token) => regex.test(token);
}

function containsSequence(haystack: string[], needle: string[]): boolean {
  for (let i = 0; i + needle.length <= haystack.length; i++) {
    if (needle.every((word, j) => haystack[i + j] === word)) return true;
  }
  return false;
}
