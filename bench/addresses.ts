/**
 * Address matcher benchmark: quality on the hand-labelled (tuning) set and on the two held-out
 * sets, robustness on synthetic typos, then throughput on one core against two references
 * measured in the same run. The held-out sets were written apart from the matcher and are never
 * tuned against (test/fixtures/addresses/README.md).
 *
 *   npm run bench:addresses            (BENCH_SECONDS=2 by default per measurement)
 *
 * Prints readable lines and ends with one JSON line holding every figure.
 */
import { matchAddress, type AddressInput } from "../app/addresses";
import { tokenize } from "../app/addresses/tokens";
import {
  HOLDOUT_2_FILE,
  HOLDOUT_FILE,
  MESSAGES_2_FILE,
  MESSAGES_FILE,
  type Scores,
  deliverability,
  loadLabelled,
  score,
} from "../test/fixtures/addresses/labelled";
import { syntheticCases } from "../test/fixtures/addresses/synthetic";

const SECONDS = Number(process.env.BENCH_SECONDS ?? "2");

/**
 * Runs `work` over the inputs in rounds until `seconds` have passed; returns items per second of
 * wall time and per second of this process's CPU time. On a shared machine the wall-time figure
 * drops when other processes take the core; the CPU-time figure does much less.
 */
function throughput(
  inputs: readonly AddressInput[],
  work: (input: AddressInput) => unknown,
  seconds: number,
): { wall: number; cpu: number } {
  let sink = 0;
  // Warm-up: let the JIT settle before timing.
  for (let round = 0; round < 3; round++)
    for (const input of inputs) sink ^= work(input) === undefined ? 1 : 0;
  let done = 0;
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  const until = start + seconds * 1000;
  let now = start;
  while (now < until) {
    for (const input of inputs) sink ^= work(input) === undefined ? 1 : 0;
    done += inputs.length;
    now = performance.now();
  }
  const cpu = process.cpuUsage(cpuStart);
  if (sink === 42) console.log(""); // keeps the results observable so the work is not optimised away
  return { wall: done / ((now - start) / 1000), cpu: done / ((cpu.user + cpu.system) / 1e6) };
}

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
const rate = (value: number) => `${Math.round(value).toLocaleString("en-US")}/s`;

type Deliverability = ReturnType<typeof deliverability>;

function report(title: string, scores: Scores, parts: Deliverability): void {
  console.log(
    `${title.padEnd(27)}${scores.cases} (${scores.resolvable} resolvable, ${scores.ambiguous} ambiguous)`,
  );
  console.log(`  area accuracy (resolvable) ${percent(scores.areaAccuracy)}   target >= 99%`);
  console.log(`  governorate accuracy       ${percent(scores.governorateAccuracy)}`);
  console.log(
    `  parts accuracy             ${percent(scores.partsAccuracy)} of labelled addresses fully right, ${percent(scores.partFieldAccuracy)} of fields   target >= 99% of fields`,
  );
  console.log(
    `  wrong but confident        ${percent(scores.wrongButConfidentRate)}   target <= 0.3%`,
  );
  console.log(`  unresolved (no area)       ${percent(scores.unresolvedRate)} of all addresses`);
  console.log(
    `  sent without asking        ${percent(scores.confidentRateOnResolvable)} of resolvable addresses`,
  );
  console.log(
    `  ambiguous held back        ${percent(scores.ambiguousHeldBack)} of ambiguous addresses`,
  );
  // No block, no send (ADR 0052): the matcher's parts against the labels'.
  console.log(
    `  held for missing parts     ${parts.heldWrongly.length} of ${parts.complete} complete addresses (${parts.heldWrongly.join(", ") || "none"}); sent incomplete ${parts.sentIncomplete.length} of ${parts.labelled - parts.complete}`,
  );
}

const cases = loadLabelled();
const inputs: AddressInput[] = cases.map((labelled) => labelled.input);
const results = inputs.map((input) => matchAddress(input));
const { scores } = score(cases, results);
const parts = deliverability(cases, results);
report("labelled (tuning) set", scores, parts);

/** One set's scores and deliverability, printed under its title. */
function measureSet(title: string, file: string) {
  const set = loadLabelled(file);
  const answers = set.map((labelled) => matchAddress(labelled.input));
  const measured = { ...score(set, answers), parts: deliverability(set, answers) };
  report(title, measured.scores, measured.parts);
  return measured;
}

const { scores: holdout, parts: holdoutParts } = measureSet("held-out set", HOLDOUT_FILE);
const { scores: holdout2, parts: holdout2Parts } = measureSet(
  "second held-out set",
  HOLDOUT_2_FILE,
);
// Written for issue 30 (message-style addresses, landmarks, person's names, two areas): the
// development set for those kinds, reported apart.
const { scores: messages } = measureSet("message-style set", MESSAGES_FILE);
const messageCases = loadLabelled(MESSAGES_FILE);
// Written after the changes for issue 30 and measured once (README): reported apart.
const { scores: messages2 } = measureSet("second message-style set", MESSAGES_2_FILE);

// Synthetic typos of every gazetteer spelling: how the matcher degrades, and whether it stays honest.
const synthetic = syntheticCases();
let syntheticRight = 0;
let syntheticWrongButConfident = 0;
for (const { area, input } of synthetic) {
  const match = matchAddress(input);
  if (match.area === area) syntheticRight++;
  else if (match.confident) syntheticWrongButConfident++;
}
const syntheticAccuracy = syntheticRight / synthetic.length;
const syntheticWrongButConfidentRate = syntheticWrongButConfident / synthetic.length;
console.log(
  `synthetic typo stress      ${synthetic.length} corrupted spellings: area right ${percent(syntheticAccuracy)}, wrong but confident ${percent(syntheticWrongButConfidentRate)}`,
);

const measured = throughput(inputs, (input) => matchAddress(input), SECONDS);
const matcher = measured.wall;
const jsonRoundTrip = throughput(
  inputs,
  (input) => JSON.parse(JSON.stringify(input)),
  SECONDS / 2,
).wall;
const tokenizeOnly = throughput(
  inputs,
  (input) =>
    [input.city, input.address1, input.address2, input.zip].map((field) => tokenize(field ?? "")),
  SECONDS / 2,
).wall;
const longer = throughput(
  messageCases.map((labelled) => labelled.input),
  (input) => matchAddress(input),
  SECONDS / 2,
);
console.log(`matcher throughput         ${rate(matcher)} on one core   target >= 20,000/s`);
console.log(`  per second of CPU time   ${rate(measured.cpu)} (less sensitive to a busy machine)`);
console.log(
  `  message-style addresses  ${rate(longer.wall)}, ${rate(longer.cpu)} per second of CPU time (longer texts)`,
);
console.log(
  `reference: JSON round trip ${rate(jsonRoundTrip)} (matcher is ${(jsonRoundTrip / matcher).toFixed(1)}x slower)`,
);
console.log(
  `reference: tokenizing only ${rate(tokenizeOnly)} (matcher is ${(tokenizeOnly / matcher).toFixed(1)}x slower)`,
);

console.log(
  JSON.stringify({
    cases: scores.cases,
    resolvable: scores.resolvable,
    ambiguous: scores.ambiguous,
    areaAccuracy: Number(scores.areaAccuracy.toFixed(4)),
    governorateAccuracy: Number(scores.governorateAccuracy.toFixed(4)),
    partsAccuracy: Number(scores.partsAccuracy.toFixed(4)),
    partFieldAccuracy: Number(scores.partFieldAccuracy.toFixed(4)),
    wrongButConfidentRate: Number(scores.wrongButConfidentRate.toFixed(4)),
    unresolvedRate: Number(scores.unresolvedRate.toFixed(4)),
    confidentRateOnResolvable: Number(scores.confidentRateOnResolvable.toFixed(4)),
    ambiguousHeldBack: Number(scores.ambiguousHeldBack.toFixed(4)),
    heldForMissingParts: parts.heldWrongly.length,
    sentWithMissingParts: parts.sentIncomplete.length,
    holdoutCases: holdout.cases,
    holdoutResolvable: holdout.resolvable,
    holdoutAmbiguous: holdout.ambiguous,
    holdoutAreaAccuracy: Number(holdout.areaAccuracy.toFixed(4)),
    holdoutGovernorateAccuracy: Number(holdout.governorateAccuracy.toFixed(4)),
    holdoutPartsAccuracy: Number(holdout.partsAccuracy.toFixed(4)),
    holdoutPartFieldAccuracy: Number(holdout.partFieldAccuracy.toFixed(4)),
    holdoutWrongButConfidentRate: Number(holdout.wrongButConfidentRate.toFixed(4)),
    holdoutUnresolvedRate: Number(holdout.unresolvedRate.toFixed(4)),
    holdoutConfidentRateOnResolvable: Number(holdout.confidentRateOnResolvable.toFixed(4)),
    holdoutAmbiguousHeldBack: Number(holdout.ambiguousHeldBack.toFixed(4)),
    holdoutHeldForMissingParts: holdoutParts.heldWrongly.length,
    holdoutSentWithMissingParts: holdoutParts.sentIncomplete.length,
    messagesCases: messages.cases,
    messagesAmbiguous: messages.ambiguous,
    messagesAreaAccuracy: Number(messages.areaAccuracy.toFixed(4)),
    messagesPartFieldAccuracy: Number(messages.partFieldAccuracy.toFixed(4)),
    messagesWrongButConfidentRate: Number(messages.wrongButConfidentRate.toFixed(4)),
    messagesAmbiguousHeldBack: Number(messages.ambiguousHeldBack.toFixed(4)),
    messagesThroughputPerCpuSecond: Math.round(longer.cpu),
    messages2AreaAccuracy: Number(messages2.areaAccuracy.toFixed(4)),
    messages2WrongButConfidentRate: Number(messages2.wrongButConfidentRate.toFixed(4)),
    messages2PartFieldAccuracy: Number(messages2.partFieldAccuracy.toFixed(4)),
    holdout2Cases: holdout2.cases,
    holdout2Resolvable: holdout2.resolvable,
    holdout2Ambiguous: holdout2.ambiguous,
    holdout2AreaAccuracy: Number(holdout2.areaAccuracy.toFixed(4)),
    holdout2GovernorateAccuracy: Number(holdout2.governorateAccuracy.toFixed(4)),
    holdout2PartsAccuracy: Number(holdout2.partsAccuracy.toFixed(4)),
    holdout2PartFieldAccuracy: Number(holdout2.partFieldAccuracy.toFixed(4)),
    holdout2WrongButConfidentRate: Number(holdout2.wrongButConfidentRate.toFixed(4)),
    holdout2UnresolvedRate: Number(holdout2.unresolvedRate.toFixed(4)),
    holdout2ConfidentRateOnResolvable: Number(holdout2.confidentRateOnResolvable.toFixed(4)),
    holdout2AmbiguousHeldBack: Number(holdout2.ambiguousHeldBack.toFixed(4)),
    holdout2HeldForMissingParts: holdout2Parts.heldWrongly.length,
    holdout2SentWithMissingParts: holdout2Parts.sentIncomplete.length,
    syntheticCases: synthetic.length,
    syntheticAreaAccuracy: Number(syntheticAccuracy.toFixed(4)),
    syntheticWrongButConfidentRate: Number(syntheticWrongButConfidentRate.toFixed(4)),
    addressesPerSecond: Math.round(matcher),
    addressesPerCpuSecond: Math.round(measured.cpu),
    jsonRoundTripPerSecond: Math.round(jsonRoundTrip),
    tokenizeOnlyPerSecond: Math.round(tokenizeOnly),
    slowdownVsJsonRoundTrip: Number((jsonRoundTrip / matcher).toFixed(2)),
    node: process.version,
  }),
);
