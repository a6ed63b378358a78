/**
 * The WebAssembly keyword scanner's first filter (Teddy, as in Hyperscan): for each of the first
 * characters of a keyword, two 16-byte tables indexed by the character's low and high nibble say
 * which buckets of keywords may have that character there. A position is a candidate when some
 * bucket accepts all of its characters. Accepting is per nibble, so a bucket accepts every
 * combination of its keywords' nibbles: keywords are grouped so that each bucket's combinations
 * are characters that are rare in real text. Each of the three sets of eight buckets looks at
 * four characters (a shorter keyword, `sk`, `q~`, `://`, accepts anything after it), where
 * keywords with a common start, like `age-secret-key-1` or `lin_api_`, differ from ordinary words.
 * With two sets (the first over two characters) the ~180 prefixes shared 16 buckets, whose
 * nibble combinations let 5.9 % of package text's positions through; three sets of four pass
 * 2.5 % (two sets of four 4.8 %, two over four and one over two 3.4 %) for eight shuffles more
 * per 16 characters.
 */

/** Characters each set of eight buckets looks at. */
export const SET_CHARS = [4, 4, 4] as const;
/** Longest prefix any bucket looks at. */
export const TEDDY_CHARS = 4;
/**
 * Characters whose high nibble is looked at; later ones count by their low nibble only. On
 * package text and on held-out code (npm's and Python's own sources) this passes no more
 * positions than checking both nibbles of all four did, and saves two shuffles per block.
 */
export const HIGH_NIBBLE_CHARS = 2;
/** Buckets: three table sets of eight (one bit per bucket in a table byte). */
export const TEDDY_BUCKETS = 8 * SET_CHARS.length;
/** Size of the tables teddyTables returns: per set, per position, 32 bytes. */
export const TEDDY_TABLE_BYTES = (SET_CHARS[0] + SET_CHARS[1] + SET_CHARS[2]) * 32;
/** Offset of each set's tables. */
const SET_OFFSET = [0, SET_CHARS[0] * 32, (SET_CHARS[0] + SET_CHARS[1]) * 32] as const;
type TableSet = 0 | 1 | 2;
const setOf = (bucket: number): TableSet => (bucket >> 3) as TableSet;

/**
 * How often each character occurs in argument-like text, as the filter sees it (bit 0x20 set,
 * so letters are folded and control characters land on 0x20-0x3f), per 100,000 characters.
 * Measured on 12 MB of installed package files (JavaScript, TypeScript, Markdown, JSON).
 */
// prettier-ignore
const FREQUENCY = [
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  19832, 83, 726, 84, 70, 8, 112, 532, 877, 1222, 3504, 53, 914, 342, 1445, 894,
  231, 194, 138, 82, 82, 68, 59, 37, 58, 57, 680, 754, 148, 684, 220, 160,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  434, 4362, 890, 2584, 2270, 7933, 1298, 1192, 1476, 4264, 242, 451, 2514, 1656, 4336, 4405,
  2245, 240, 4747, 4498, 6129, 2149, 755, 557, 521, 878, 294, 694, 251, 694, 17, 585,
];

/** Per prefix position: one bit per low nibble and one per high nibble a bucket accepts. */
interface BucketMasks {
  lo: number[];
  hi: number[];
}

/**
 * Per high nibble h, the share of characters with that high nibble and a low nibble in a set,
 * by the set's low and high byte: acceptedShare is then two lookups per high nibble.
 */
let rowShares: Float64Array | undefined;
function shares(): Float64Array {
  if (rowShares) return rowShares;
  const t = new Float64Array(8 * 2 * 256);
  for (let h = 0; h < 8; h++) {
    for (let half = 0; half < 2; half++) {
      for (let bits = 0; bits < 256; bits++) {
        let sum = 0;
        for (let l = 0; l < 8; l++) if ((bits >> l) & 1) sum += FREQUENCY[h * 16 + half * 8 + l]!;
        t[(h * 2 + half) * 256 + bits] = sum / 100_000;
      }
    }
  }
  return (rowShares = t);
}

/** Share of text characters whose low nibble is in `lo` and high nibble in `hi`. */
function acceptedShare(lo: number, hi: number): number {
  const t = shares();
  let share = 0;
  for (let h = 0; h < 8; h++) {
    if ((hi >> h) & 1) share += t[h * 512 + (lo & 255)]! + t[h * 512 + 256 + ((lo >> 8) & 255)]!;
  }
  return share;
}

/** The nibble bits of one prefix: position j of a shorter prefix accepts anything. */
function prefixMasks(prefix: string): BucketMasks {
  const lo: number[] = [];
  const hi: number[] = [];
  for (let j = 0; j < TEDDY_CHARS; j++) {
    if (j >= prefix.length) {
      lo.push(0xffff);
      hi.push(0xffff);
      continue;
    }
    const c = prefix.charCodeAt(j) | 0x20;
    lo.push(1 << (c & 15));
    hi.push(j < HIGH_NIBBLE_CHARS ? 1 << (c >> 4) : 0xffff);
  }
  return { lo, hi };
}

/** Expected share of text positions a bucket of `set` with these masks (plus `extra`) accepts. */
function bucketRate(m: BucketMasks, set: TableSet, extra?: BucketMasks): number {
  let rate = 1;
  for (let j = 0; j < SET_CHARS[set]; j++) {
    rate *= acceptedShare(m.lo[j]! | (extra?.lo[j] ?? 0), m.hi[j]! | (extra?.hi[j] ?? 0));
  }
  return rate;
}

function unionOf(members: readonly number[], masks: readonly BucketMasks[]): BucketMasks {
  const u: BucketMasks = { lo: new Array<number>(TEDDY_CHARS).fill(0), hi: new Array<number>(TEDDY_CHARS).fill(0) };
  for (const i of members) {
    for (let j = 0; j < TEDDY_CHARS; j++) {
      u.lo[j] = u.lo[j]! | masks[i]!.lo[j]!;
      u.hi[j] = u.hi[j]! | masks[i]!.hi[j]!;
    }
  }
  return u;
}

/**
 * A bucket for every prefix, chosen so the filter passes few positions of ordinary text:
 * greedy (commonest prefix first, each into the bucket it adds least to), then moves of single
 * prefixes while they lower the expected rate. Deterministic; 15-25 ms for the ~180 built-in prefixes.
 */
export function assignBuckets(prefixes: readonly string[]): number[] {
  const masks = prefixes.map(prefixMasks);
  const none: BucketMasks = { lo: new Array<number>(TEDDY_CHARS).fill(0), hi: new Array<number>(TEDDY_CHARS).fill(0) };
  const members: number[][] = Array.from({ length: TEDDY_BUCKETS }, () => []);
  const bucketOf = new Array<number>(prefixes.length).fill(0);
  const own = masks.map((m) => bucketRate(m, 0));
  const order = [...prefixes.keys()].sort((a, b) => own[b]! - own[a]! || a - b);
  const unions = members.map(() => none);
  const rates = new Array<number>(TEDDY_BUCKETS).fill(0); // bucketRate of each union (0 when empty)
  const refresh = (b: number): void => {
    unions[b] = unionOf(members[b]!, masks);
    rates[b] = members[b]!.length ? bucketRate(unions[b]!, setOf(b)) : 0;
  };
  for (const i of order) {
    let best = 0;
    let bestAdded = Infinity;
    for (let b = 0; b < TEDDY_BUCKETS; b++) {
      const added = bucketRate(unions[b]!, setOf(b), masks[i]) - rates[b]!;
      if (added < bestAdded - 1e-15) {
        bestAdded = added;
        best = b;
      }
    }
    members[best]!.push(i);
    bucketOf[i] = best;
    refresh(best);
  }
  for (let round = 0; round < 8; round++) {
    let moved = false;
    for (let i = 0; i < prefixes.length; i++) {
      const from = bucketOf[i]!;
      const rest = members[from]!.filter((x) => x !== i);
      const saved = rates[from]! - (rest.length ? bucketRate(unionOf(rest, masks), setOf(from)) : 0);
      let best = from;
      let bestGain = 1e-12;
      for (let b = 0; b < TEDDY_BUCKETS; b++) {
        if (b === from) continue;
        const gain = saved - (bucketRate(unions[b]!, setOf(b), masks[i]) - rates[b]!);
        if (gain > bestGain) {
          bestGain = gain;
          best = b;
        }
      }
      if (best !== from) {
        members[from] = rest;
        members[best]!.push(i);
        bucketOf[i] = best;
        refresh(from);
        refresh(best);
        moved = true;
      }
    }
    if (!moved) break;
  }
  return bucketOf;
}

/**
 * The filter's tables: per table set (buckets 0-7, 8-15 and 16-23, each over four characters), per
 * prefix position, 16 bytes by low nibble then 16 by high nibble; TEDDY_TABLE_BYTES in all.
 */
export function teddyTables(prefixes: readonly string[]): Uint8Array {
  const tables = new Uint8Array(TEDDY_TABLE_BYTES);
  const buckets = assignBuckets(prefixes);
  prefixes.forEach((prefix, i) => {
    const set = setOf(buckets[i]!);
    const bit = 1 << (buckets[i]! & 7);
    const m = prefixMasks(prefix);
    for (let j = 0; j < SET_CHARS[set]; j++) {
      const at = SET_OFFSET[set] + j * 32;
      for (let x = 0; x < 16; x++) {
        if ((m.lo[j]! >> x) & 1) tables[at + x] = tables[at + x]! | bit;
        if ((m.hi[j]! >> x) & 1) tables[at + 16 + x] = tables[at + 16 + x]! | bit;
      }
    }
  });
  return tables;
}
