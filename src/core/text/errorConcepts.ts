// Error concepts: the same failure is worded differently by every tool ("Disk quota exceeded" and
// "no space left on device"; psql's "could not connect to server" and Node's ECONNREFUSED; TS2322 and
// TS2345). Recall adds a concept's words to both the stored failure and the query, so that two
// wordings of one kind of failure share words that neither the TF-IDF nor the embedder could link.
// Each pattern is a plain alternation of literals (linear time; no nested quantifiers), matched on
// lower-cased text. Measured on bench/recall-families.json (BENCHMARKS.md).

import type { Scorer } from '../recall';

export interface ErrorConcept {
  id: string;
  /** Words added for recall when the concept is present (shared by every wording; content words only, no "not"). */
  words: string;
  pattern: RegExp;
}

export const ERROR_CONCEPTS: readonly ErrorConcept[] = [
  { id: 'type_mismatch', words: 'type mismatch assignable', pattern: /ts2322|ts2345|not assignable to (?:type|parameter)|mismatched types|incompatible types|type mismatch|e0308/ },
  { id: 'esm_cjs', words: 'esm commonjs import require', pattern: /err_require_esm|require\(\) of es module|cannot use import statement outside a module|unexpected token 'export'|err_unknown_file_extension|is not defined in es module scope|must use import to load es module/ },
  { id: 'disk_full', words: 'disk full space', pattern: /no space left on device|enospc|disk quota exceeded|edquot|disk is full|disk full|not enough space on the disk/ },
  { id: 'conn_refused', words: 'connection refused', pattern: /econnrefused|connection refused|could not connect to server|is the server running|actively refused|connection to server .{0,80} failed/ },
  { id: 'addr_in_use', words: 'address port already', pattern: /eaddrinuse|address already in use|already in use|port is already allocated/ },
  { id: 'module_missing', words: 'module missing dependency', pattern: /cannot find module|can't resolve|module not found|no module named|modulenotfounderror|cannot resolve module|unable to resolve module|err_module_not_found/ },
  { id: 'permission', words: 'permission denied', pattern: /eacces|permission denied|operation not permitted|eperm|permissionerror|access is denied/ },
  { id: 'auth', words: 'authentication credentials', pattern: /authentication failed|\(publickey\)|invalid username or password|unauthorized|bad credentials|could not read from remote repository|access denied for user/ },
  { id: 'out_of_memory', words: 'memory heap', pattern: /out of memory|outofmemoryerror|heap limit|enomem|oomkilled|cannot allocate memory|memoryerror|heap space/ },
  { id: 'command_missing', words: 'command executable path', pattern: /command not found|is not recognized as an internal or external command|executable file not found|not found in \$path/ },
  { id: 'dns', words: 'host dns resolve', pattern: /enotfound|getaddrinfo|could not resolve host|name or service not known|temporary failure in name resolution|nodename nor servname/ },
  { id: 'timeout', words: 'timed timeout', pattern: /etimedout|timed out|timeout/ },
  { id: 'tls', words: 'tls certificate', pattern: /certificate|issuer_cert|self[- ]signed|ssl routines|sslerror/ },
  { id: 'expired', words: 'expired token', pattern: /expiredtoken|token has expired|token expired|has expired|is expired|session expired|credentials expired/ },
  { id: 'file_missing', words: 'file missing', pattern: /no such file or directory|enoent|filenotfounderror|file not found|does not exist/ },
  { id: 'lockfile', words: 'lockfile', pattern: /lockfile|lock file|package-lock|pnpm-lock|yarn\.lock|poetry\.lock|cargo\.lock|gemfile\.lock/ },
  { id: 'engine_version', words: 'engine version', pattern: /ebadengine|unsupported engine|engine "node" is incompatible|requires node|unsupported node/ },
  { id: 'segfault', words: 'segmentation crash', pattern: /segmentation fault|segmentation violation|sigsegv|segfault|core dumped|access violation/ },
  { id: 'undefined_access', words: 'undefined property', pattern: /cannot read propert|undefined is not an object|null is not an object|of undefined|of null/ },
  { id: 'none_access', words: 'nonetype', pattern: /nonetype/ },
  { id: 'docker_daemon', words: 'docker daemon', pattern: /docker daemon|docker\.sock|docker_host/ },
  { id: 'open_files', words: 'open files limit', pattern: /emfile|too many open files|enfile/ },
  { id: 'rate_limit', words: 'rate limit requests', pattern: /rate limit|too many requests|http 429|throttl/ },
  { id: 'merge_conflict', words: 'merge conflict', pattern: /merge conflict|conflict \(content\)|unmerged files|fix conflicts|automatic merge failed/ },
  { id: 'ownership', words: 'borrow moved ownership', pattern: /borrow|moved value|value moved|cannot move out|e0382|e0505|e0499|e0502/ },
  { id: 'dependency_conflict', words: 'dependency conflict', pattern: /eresolve|conflicting dependencies|resolutionimpossible|unable to resolve dependency tree|could not resolve dependency|version solving failed|peer dep/ },
  { id: 'snapshot', words: 'snapshot', pattern: /snapshot/ },
  { id: 'indentation', words: 'indentation', pattern: /indentationerror|taberror|indentation|unexpected indent|unindent/ },
  { id: 'unused', words: 'unused', pattern: /imported and not used|declared and not used|unused variable|unused import|declared but its value is never read|never used/ },
  { id: 'env_missing', words: 'environment variable', pattern: /environment variable|env var|is not set|keyerror: '[a-z0-9_]+'/ },
  { id: 'class_missing', words: 'class missing', pattern: /classnotfoundexception|noclassdeffounderror|class not found|could not find or load main class/ },
];

/** Text looked at for concepts (signatures are ≤300 characters; a query may be pasted output). */
const MAX_CHARS = 8000;

/** The concepts an error text mentions, in table order. */
export function errorConcepts(text: string): ErrorConcept[] {
  const t = (text.length > MAX_CHARS ? text.slice(0, MAX_CHARS) : text).toLowerCase();
  return ERROR_CONCEPTS.filter(c => c.pattern.test(t));
}

// Documents are the same from one query to the next: their concepts are remembered (bounded).
const MEMO_LIMIT = 20000;
const memo = new Map<string, ReadonlySet<string>>();
/** The ids of the concepts of a text, remembered for the next query (bounded). */
export function conceptIds(doc: string): ReadonlySet<string> {
  let ids = memo.get(doc);
  if (!ids) {
    ids = new Set(errorConcepts(doc).map(c => c.id));
    if (memo.size >= MEMO_LIMIT) memo.delete(memo.keys().next().value as string);
    memo.set(doc, ids);
  }
  return ids;
}

/**
 * Scores documents by the error concepts they share with the query, each concept weighed by how rare
 * it is among the documents (a concept every document has tells nothing): the share of the query's
 * concept weight that the document has, in [0, 1]. Recall adds it to the fused score with a small
 * weight (embeddings/index.ts), so that a reworded error finds the same kind of failure.
 */
export const conceptScorer = {
  id: 'concepts-v1',
  score(query: string, documents: readonly string[]): number[] {
    const q = errorConcepts(query);
    if (!q.length) return documents.map(() => 0);
    const { docs, counts } = conceptsOf(documents);
    const n = docs.length + 1;
    const weight = new Map(q.map(c => [c.id, Math.log(1 + n / (1 + (counts.get(c.id) ?? 0)))]));
    let total = 0;
    for (const w of weight.values()) total += w;
    return docs.map(d => {
      let shared = 0;
      for (const [id, w] of weight) if (d.has(id)) shared += w;
      return total > 0 ? shared / total : 0;
    });
  },
};

/** The concepts of each document and how many documents have each concept; kept for a frozen list (recall's). */
function conceptsOf(documents: readonly string[]): { docs: ReadonlySet<string>[]; counts: Map<string, number> } {
  const frozen = Object.isFrozen(documents);
  const known = frozen ? listConcepts.get(documents) : undefined;
  if (known) return known;
  const docs = documents.map(conceptIds);
  const counts = new Map<string, number>();
  for (const d of docs) for (const id of d) counts.set(id, (counts.get(id) ?? 0) + 1);
  const r = { docs, counts };
  if (frozen) listConcepts.set(documents, r);
  return r;
}
const listConcepts = new WeakMap<readonly string[], { docs: ReadonlySet<string>[]; counts: Map<string, number> }>();

/** (1 − weight)·base + weight·concepts: recall's fused score with the error concepts added. */
export class ConceptBoostScorer implements Scorer {
  readonly id: string;
  constructor(
    readonly base: Scorer,
    readonly weight: number,
  ) {
    this.id = `${base.id}+concepts*${weight}`;
  }
  async score(query: string, documents: readonly string[]): Promise<number[]> {
    const b = await this.base.score(query, documents);
    const c = conceptScorer.score(query, documents);
    return b.map((v, i) => (1 - this.weight) * Math.max(0, v) + this.weight * c[i]);
  }
}

export function withConcepts(base: Scorer, weight: number): ConceptBoostScorer {
  return new ConceptBoostScorer(base, weight);
}
