/*
 * Edit distance for the typo search: how many letters apart two spellings are, within a budget
 * that grows with the length of the word, and the deletion variants that index them.
 */

export function editBudget(length: number): number {
  if (length >= 10) return 2;
  if (length >= 5) return 1;
  return 0;
}

// Optimal string alignment; gives up (budget + 1) as soon as a row exceeds the budget.
export function editDistance(a: string, b: string, budget: number): number {
  if (Math.abs(a.length - b.length) > budget) return budget + 1;
  let previousRow: number[] = [];
  let row: number[] = Array.from({ length: b.length + 1 }, (_, j) => j);
  let beforePrevious: number[] = [];
  for (let i = 1; i <= a.length; i++) {
    beforePrevious = previousRow;
    previousRow = row;
    row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(
        (previousRow[j] ?? 0) + 1,
        (row[j - 1] ?? 0) + 1,
        (previousRow[j - 1] ?? 0) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, (beforePrevious[j - 2] ?? 0) + 1);
      }
      row[j] = value;
      if (value < best) best = value;
    }
    if (best > budget) return budget + 1;
  }
  return row[b.length] ?? budget + 1;
}

function addDeletions(word: string, budget: number, into: Set<string>): void {
  into.add(word);
  if (budget === 0) return;
  for (let i = 0; i < word.length; i++) {
    const shorter = word.slice(0, i) + word.slice(i + 1);
    if (!into.has(shorter)) addDeletions(shorter, budget - 1, into);
  }
}

export function deletions(word: string, budget: number): Set<string> {
  const out = new Set<string>();
  addDeletions(word, budget, out);
  return out;
}
