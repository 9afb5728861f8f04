/**
 * A Hono router that remembers its matches: Hono's TrieRouter (the route set has paths its faster
 * RegExpRouter refuses, such as `/issue/createmeta/{p}/issuetypes` beside `/issue/{key}/...`) behind a
 * bounded map from method and path to the match, so a path asked for again (an agent polling one issue)
 * skips the trie walk. Matches are read-only to Hono, so one can serve many requests.
 */
import type { Result, Router } from "hono/router";
import { TrieRouter } from "hono/router/trie-router";

const DEFAULT_MAX_PATHS = 4096;

export class MemoRouter<T> implements Router<T> {
  readonly name = "MemoRouter";
  readonly #inner = new TrieRouter<T>();
  readonly #matches = new Map<string, Result<T>>();

  constructor(private readonly maxPaths = DEFAULT_MAX_PATHS) {}

  add(method: string, path: string, handler: T): void {
    this.#matches.clear();
    this.#inner.add(method, path, handler);
  }

  match(method: string, path: string): Result<T> {
    const key = `${method} ${path}`;
    let result = this.#matches.get(key);
    if (result === undefined) {
      result = this.#inner.match(method, path);
      // Many distinct paths (ids, isolated sites): start over rather than grow without bound.
      if (this.#matches.size >= this.maxPaths) this.#matches.clear();
      this.#matches.set(key, result);
    }
    return result;
  }
}
