/**
 * The stable sort of `sorted`, step for step Go's sort.Stable (golang/go src/sort/zsortinterface.go
 * at go1.19: insertion sort of blocks of 20, then SymMerge with rotations), so that the sequence of
 * comparisons, and hence which comparison error `sorted` reports, is starlark-go's: its Less records
 * an error and answers false, the sort carries on, and the last error wins
 * (google/starlark-go starlark/library.go sortSlice). Orders `n` positions through `less(i, j)` and
 * `swap(i, j)`; the caller keeps the arrays.
 */

export interface SortAccess {
  less(i: number, j: number): boolean;
  swap(i: number, j: number): void;
}

const BLOCK = 20;

/** Sorts positions 0..n-1 stably with `data`'s `less` and `swap`. */
export function stableSort(data: SortAccess, n: number): void {
  let blockSize = BLOCK;
  let a = 0;
  let b = blockSize;
  while (b <= n) {
    insertionSort(data, a, b);
    a = b;
    b += blockSize;
  }
  insertionSort(data, a, n);
  while (blockSize < n) {
    a = 0;
    b = 2 * blockSize;
    while (b <= n) {
      symMerge(data, a, a + blockSize, b);
      a = b;
      b += 2 * blockSize;
    }
    const m = a + blockSize;
    if (m < n) symMerge(data, a, m, n);
    blockSize *= 2;
  }
}

function insertionSort(data: SortAccess, a: number, b: number): void {
  for (let i = a + 1; i < b; i++) {
    for (let j = i; j > a && data.less(j, j - 1); j--) data.swap(j, j - 1);
  }
}

/** Merges the sorted runs [a, m) and [m, b) in place. */
function symMerge(data: SortAccess, a: number, m: number, b: number): void {
  if (m - a === 1) {
    // Insert data[a] into data[m:b] by binary search.
    let i = m;
    let j = b;
    while (i < j) {
      const h = (i + j) >>> 1;
      if (data.less(h, a)) i = h + 1;
      else j = h;
    }
    for (let k = a; k < i - 1; k++) data.swap(k, k + 1);
    return;
  }
  if (b - m === 1) {
    // Insert data[m] into data[a:m] by binary search.
    let i = a;
    let j = m;
    while (i < j) {
      const h = (i + j) >>> 1;
      if (!data.less(m, h)) i = h + 1;
      else j = h;
    }
    for (let k = m; k > i; k--) data.swap(k, k - 1);
    return;
  }
  const mid = (a + b) >>> 1;
  const n = mid + m;
  let start: number;
  let r: number;
  if (m > mid) {
    start = n - b;
    r = mid;
  } else {
    start = a;
    r = m;
  }
  const p = n - 1;
  while (start < r) {
    const c = (start + r) >>> 1;
    if (!data.less(p - c, c)) start = c + 1;
    else r = c;
  }
  const end = n - start;
  if (start < m && m < end) rotate(data, start, m, end);
  if (a < start && start < mid) symMerge(data, a, start, mid);
  if (mid < end && end < b) symMerge(data, mid, end, b);
}

/** Rotates [a, m) and [m, b) so that [m, b) comes first. */
function rotate(data: SortAccess, a: number, m: number, b: number): void {
  let i = m - a;
  let j = b - m;
  while (i !== j) {
    if (i > j) {
      swapRange(data, m - i, m, j);
      i -= j;
    } else {
      swapRange(data, m - i, m + j - i, i);
      j -= i;
    }
  }
  swapRange(data, m - i, m, i);
}

function swapRange(data: SortAccess, a: number, b: number, n: number): void {
  for (let i = 0; i < n; i++) data.swap(a + i, b + i);
}
