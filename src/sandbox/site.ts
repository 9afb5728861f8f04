/**
 * Site: all state of one simulated Atlassian Cloud site (a Jira tenant and a Confluence tenant).
 *
 * Records are immutable values held in copy-on-write tables. `fork()` shares every table with its
 * parent and copies a table only when one side first writes to it, so a fork costs microseconds and
 * an untouched fork almost no memory. Ids come from counters and time from the site clock, so the
 * same seed and the same calls give the same state, byte for byte.
 */
import { createHash } from "node:crypto";
import type { Page, PageLabel, Space } from "./confluence/model.ts";
import type {
  Comment,
  Issue,
  IssueHistory,
  IssueLink,
  IssueType,
  JiraUser,
  Project,
  RemoteLink,
} from "./jira/model.ts";
import { stableStringify } from "./stable-stringify.ts";

/** Every table of a site and the record type it holds. */
export interface SiteRecords {
  users: JiraUser;
  projects: Project;
  issueTypes: IssueType;
  issues: Issue;
  comments: Comment;
  issueLinks: IssueLink;
  remoteLinks: RemoteLink;
  spaces: Space;
  pages: Page;
  pageLabels: PageLabel;
  /** Each issue's history (jira/history.ts), by issue id: a record of changes, not a change, so left out of diffs. */
  issueHistory: IssueHistory;
  /** Index: upper-cased issue key → issue id. Derived, so left out of diffs. */
  issueKeys: string;
  /** Index: `prefix:name` → label id. Derived, so left out of diffs. */
  labelIds: string;
}

export type TableName = keyof SiteRecords;

export const TABLE_NAMES: readonly TableName[] = [
  "users",
  "projects",
  "issueTypes",
  "issues",
  "comments",
  "issueLinks",
  "remoteLinks",
  "spaces",
  "pages",
  "pageLabels",
  "issueHistory",
  "issueKeys",
  "labelIds",
];

/** Tables derived from the others (indexes, and the history writes leave behind); diffs skip them. */
export const DERIVED_TABLES: ReadonlySet<TableName> = new Set(["issueKeys", "labelIds", "issueHistory"]);

/** Counters for ids and the clock; copied on fork (it is a handful of numbers). */
export type Counters = Record<string, number>;

interface Table<T> {
  map: Map<string, T>;
  owner: object;
  /** Sum (mod 2^256) of the table's entry hashes, kept up to date once first asked for (see digest()). */
  sum?: bigint;
}

type Tables = { [K in TableName]: Table<SiteRecords[K]> };

export class Site {
  private owner: object = {};
  private changes = 0;

  private constructor(
    readonly seed: number,
    private tables: Tables,
    private counters: Counters,
  ) {}

  /** An empty site; fixtures fill it. */
  static empty(seed: number, clockMs: number): Site {
    const owner = {};
    const tables = Object.fromEntries(TABLE_NAMES.map((name) => [name, { map: new Map(), owner }])) as Tables;
    const site = new Site(seed, tables, { clock: clockMs });
    site.owner = owner;
    return site;
  }

  /** An independent copy that shares storage with this site until either side writes. */
  fork(): Site {
    this.owner = {};
    return new Site(this.seed, { ...this.tables }, { ...this.counters });
  }

  /**
   * Runs a change atomically: `change` works on a draft, and the site takes the draft's state only if
   * `change` returns normally. If it throws (an ApiError for bad input, or a bug), nothing changed.
   */
  transact<R>(change: (draft: Site) => R): R {
    const draft = this.fork();
    const result = change(draft);
    this.tables = draft.tables;
    this.counters = draft.counters;
    this.owner = draft.owner;
    draft.owner = {};
    this.changes++;
    return result;
  }

  /**
   * Takes back the state of `snapshot`, a fork of this site taken earlier (which nothing has written
   * since): every change made after it is undone. The revision still moves, so caches of answers keyed
   * by it never serve what was computed on the undone state.
   */
  restore(snapshot: Site): void {
    this.tables = { ...snapshot.tables };
    this.counters = { ...snapshot.counters };
    this.owner = {}; // the snapshot's tables stay the snapshot's: a write here copies them first
    this.changes++;
  }

  /**
   * A number that changes whenever this site's state does (a put, remove, counter or clock step, or a
   * committed transaction): what caches of answers computed from the state are keyed by.
   */
  get revision(): number {
    return this.changes;
  }

  get<K extends TableName>(table: K, id: string): SiteRecords[K] | undefined {
    return this.tables[table].map.get(id);
  }

  /** All records of a table in insertion order (ids are counters, so that is creation order). */
  values<K extends TableName>(table: K): IterableIterator<SiteRecords[K]> {
    return this.tables[table].map.values();
  }

  entries<K extends TableName>(table: K): IterableIterator<[string, SiteRecords[K]]> {
    return this.tables[table].map.entries();
  }

  size(table: TableName): number {
    return this.tables[table].map.size;
  }

  put<K extends TableName>(table: K, id: string, record: SiteRecords[K]): void {
    this.changes++;
    const map = this.writable(table);
    const held = this.tables[table];
    if (held.sum !== undefined) {
      const old = map.get(id);
      const without = old === undefined ? held.sum : held.sum - entryHash(table, id, old);
      held.sum = BigInt.asUintN(256, without + entryHash(table, id, record));
    }
    map.set(id, record);
  }

  remove(table: TableName, id: string): void {
    this.changes++;
    const map = this.writable(table);
    const held = this.tables[table];
    const old = map.get(id);
    if (held.sum !== undefined && old !== undefined)
      held.sum = BigInt.asUintN(256, held.sum - entryHash(table, id, old));
    map.delete(id);
  }

  /** The next value of a named counter, starting at `start`. */
  nextId(counter: string, start: number): number {
    const value = this.counters[counter] ?? start;
    this.changes++;
    this.counters[counter] = value + 1;
    return value;
  }

  /** The site clock in epoch milliseconds. */
  now(): number {
    return this.counters.clock!;
  }

  /** Moves the clock forward; writes call it so that their stamps are ordered and distinct. */
  tick(ms: number): number {
    this.changes++;
    this.counters.clock = this.now() + ms;
    return this.counters.clock;
  }

  /** A stable digest of the whole state (tables and counters). */
  hash(): string {
    return createHash("sha256").update(this.serialize()).digest("hex");
  }

  /**
   * A stable digest of the whole state that costs microseconds after a write: each table keeps the sum
   * of its entries' hashes (a multiset hash, computed on first use and then updated by every put and
   * remove, shared by forks until they write), and the digest hashes those sums with the counters. Equal
   * states give equal digests; the journal checks replays with it (hash() serialises everything instead).
   */
  digest(): string {
    const sums = TABLE_NAMES.map((name) => {
      const held = this.tables[name];
      held.sum ??= tableSum(name, held.map);
      return held.sum.toString(16);
    });
    return createHash("sha256")
      .update(stableStringify({ seed: this.seed, counters: this.counters }))
      .update(sums.join(","))
      .digest("hex");
  }

  /** The whole state as canonical JSON (keys sorted, tables in a fixed order). */
  serialize(): string {
    const tables = Object.fromEntries(
      TABLE_NAMES.map((name) => [name, [...this.tables[name].map.entries()]]),
    );
    return stableStringify({ seed: this.seed, counters: this.counters, tables });
  }

  private writable<K extends TableName>(table: K): Map<string, SiteRecords[K]> {
    const current = this.tables[table];
    if (current.owner === this.owner) return current.map;
    const copy = { map: new Map(current.map), owner: this.owner, sum: current.sum } as Table<SiteRecords[K]>;
    (this.tables as Record<TableName, Table<unknown>>)[table] = copy;
    return copy.map;
  }
}

/** Record hashes by record: records are immutable values, so each is hashed once however often it is shared. */
const recordHashes = new WeakMap<object, string>();

function recordHash(record: unknown): string {
  if (typeof record !== "object" || record === null) return stableStringify(record);
  let hash = recordHashes.get(record);
  if (hash === undefined) {
    hash = createHash("sha256").update(stableStringify(record)).digest("hex");
    recordHashes.set(record, hash);
  }
  return hash;
}

/** One entry's hash as a number (its table and id included, so moving a record changes the digest). */
function entryHash(table: TableName, id: string, record: unknown): bigint {
  const hex = createHash("sha256")
    .update(`${table}\0${id}\0${recordHash(record)}`)
    .digest("hex");
  return BigInt(`0x${hex}`);
}

function tableSum(table: TableName, map: Map<string, unknown>): bigint {
  let sum = 0n;
  for (const [id, record] of map) sum += entryHash(table, id, record);
  return BigInt.asUintN(256, sum);
}
