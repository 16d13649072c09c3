// Opening machines of the browser engine against tests/engine_vectors/openings.json (run against
// the Python engine by tests/unit/engine/test_engine_openings.py): every out-of-step action is
// refused with the Python code, and the stored objects are the Python dicts.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { Board, Rules } from "../../../static/js/engine/caro.js";
import { parseSquare, squareName } from "../../../static/js/engine/coords.js";
import {
  Action, FIRST, OPENINGS, RifOpening, SECOND, Step, Swap2Opening, openingFromDict, symmetries,
} from "../../../static/js/engine/openings.js";
import { refusal, valueError, vectors } from "../helpers.js";

const V = vectors("openings.json");
const SWAP2_RULES = Rules.fromDict(V.swap2_rules);
const RENJU = Rules.fromDict(V.rif_rules);

function runPath(opening, path) {
  for (const [seat, action] of path) {
    assert.equal(opening.actor, seat);
    for (const wrong of V.all_kinds) {
      if (!opening.allowed.includes(wrong.kind)) assert.equal(refusal(() => opening.apply(wrong)).reason, "opening_step");
    }
    const other = seat === FIRST ? SECOND : FIRST;
    assert.equal(refusal(() => opening.apply(action, other)).reason, "wrong_turn");
    const state = opening.state;
    opening.apply(action, seat);
    assert.ok(opening.state !== state || state === Step.PLACE_THREE);
    // persistence at every step: replaying the stored actions gives the same machine
    const again = openingFromDict(JSON.parse(JSON.stringify(opening.toDict())));
    assert.deepEqual([again.state, again.actor, again.colors, again.board.stones()],
      [opening.state, opening.actor, opening.colors, opening.board.stones()]);
  }
}

describe("Swap2", () => {
  for (const expected of V.swap2_paths) {
    test(`path ${expected.id}`, () => {
      const opening = new Swap2Opening(SWAP2_RULES);
      assert.equal(opening.state, Step.PLACE_THREE);
      assert.equal(opening.actor, FIRST);
      runPath(opening, expected.path);
      assert.ok(opening.finished);
      assert.deepEqual(opening.colors, expected.colors);
      assert.equal(opening.actor, expected.to_move_seat);
      assert.equal(opening.seatOf(opening.board.turn), expected.to_move_seat);
      assert.equal(refusal(() => opening.apply({ kind: "place", square: "A1" })).reason, "opening_over");
      assert.deepEqual(opening.allowed, []);
    });
  }
  test("stones alternate colours", () => {
    const expected = V.swap2_five_stones;
    const opening = new Swap2Opening(SWAP2_RULES);
    runPath(opening, V.swap2_paths.find((p) => p.id === expected.path).path.slice(0, expected.steps));
    assert.deepEqual(opening.board.stones(), expected.stones);
    assert.equal(opening.state, expected.state);
  });
  test("refusals", () => {
    const data = V.swap2_refusals;
    const opening = new Swap2Opening(SWAP2_RULES);
    for (const square of data.after) opening.apply({ kind: "place", square });
    for (const [action, reason] of data.refused) assert.equal(refusal(() => opening.apply(action)).reason, reason, JSON.stringify(action));
    assert.deepEqual(opening.board.moves, data.after);
    assert.equal(opening.state, Step.PLACE_THREE);
    for (const square of data.then) opening.apply({ kind: "place", square });
    for (const color of data.bad_colors) assert.equal(refusal(() => opening.apply({ kind: "choose", color })).reason, "bad_color");
    assert.equal(opening.state, Step.SECOND_CHOICE);
  });
});

describe("RIF", () => {
  test("path", () => {
    const expected = V.rif_result;
    const opening = new RifOpening(RENJU);
    assert.equal(opening.state, Step.PLACE_1);
    runPath(opening, V.rif_path);
    assert.ok(opening.finished);
    assert.deepEqual(opening.colors, expected.colors);
    assert.deepEqual(opening.board.moves, expected.moves);
    assert.equal(opening.board.turn, expected.turn);
    assert.equal(opening.actor, expected.actor);
  });
  for (const [prefix, square] of V.rif_not_central) {
    test(`move ${prefix + 1} on ${square} is not central`, () => {
      const opening = new RifOpening(RENJU);
      for (const [, action] of V.rif_path.slice(0, prefix)) opening.apply(action);
      assert.equal(refusal(() => opening.apply({ kind: "place", square })).reason, "not_central");
      assert.equal(opening.board.ply, prefix);
    });
  }
  test("fifth-move offers", () => {
    const data = V.rif_offers;
    const opening = new RifOpening(RENJU);
    for (const [, action] of V.rif_path.slice(0, data.prefix)) opening.apply(action);
    assert.equal(opening.state, Step.OFFER_5);
    assert.equal(symmetries(opening.board).length, data.symmetries);
    for (const [squares, reason] of data.refused) {
      assert.equal(refusal(() => opening.apply({ kind: "offer", squares })).reason, reason, JSON.stringify(squares));
    }
    assert.equal(opening.state, Step.OFFER_5);
    opening.apply({ kind: "offer", squares: data.offer });
    assert.deepEqual(opening.offers, data.offer);
    assert.equal(refusal(() => opening.apply({ kind: "select", square: data.not_offered })).reason, "not_offered");
    opening.apply({ kind: "select", square: data.select });
    assert.equal(opening.board.stoneAt(data.played), "X");
    assert.equal(opening.board.stoneAt(data.not_played), null);
  });
  test("symmetry group sizes", () => {
    const data = V.symmetry_sizes;
    const opening = new RifOpening(RENJU);
    assert.equal(symmetries(opening.board).length, data.empty);
    for (const [square, size] of data.places) {
      opening.apply({ kind: "place", square });
      assert.equal(symmetries(opening.board).length, size);
    }
  });
});

describe("stored openings", () => {
  test("the Python dict, and the machine it rebuilds", () => {
    assert.equal(OPENINGS.swap2, Swap2Opening);
    assert.equal(OPENINGS.rif, RifOpening);
    const opening = new RifOpening(RENJU);
    opening.apply({ kind: "place", square: "H8" });
    opening.apply(new Action("place", "I9"));
    assert.deepEqual(opening.toDict(), {
      kind: "rif", rules: RENJU.toDict(), actions: [{ kind: "place", square: "H8" }, { kind: "place", square: "I9" }],
    });
    assert.equal(JSON.stringify(new Action("offer", null, ["K10", "K11"]).toDict()), '{"kind":"offer","squares":["K10","K11"]}');
    valueError(() => RifOpening.fromDict(new Swap2Opening().toDict()));
    assert.ok(Swap2Opening.fromDict(new Swap2Opening().toDict()) instanceof Swap2Opening);
    assert.equal(openingFromDict({ kind: "rif", rules: RENJU.toDict() }).state, Step.PLACE_1);
    valueError(() => RifOpening.fromDict(null));
  });
  test("stored actions are checked on replay", () => {
    assert.equal(refusal(() => openingFromDict(V.stored_refused.data)).reason, V.stored_refused.reason);
  });
  for (const data of V.bad_data) {
    test(`malformed data ${JSON.stringify(data)}`, () => valueError(() => openingFromDict(data)));
  }
});

describe("symmetries of set-up positions", () => {
  for (const position of V.symmetry_positions) {
    test(position.note, () => {
      const board = Board.fromStones(RENJU, { x: position.x, o: position.o });
      const group = symmetries(board);
      assert.equal(group.length, position.size);
      const [col, row] = parseSquare(position.probe, 15);
      const images = group.map((t) => squareName(...t(col, row)));
      assert.equal(images[0], position.probe);
      assert.deepEqual([...images].sort(), [...position.images].sort());
    });
  }
});
