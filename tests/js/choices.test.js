// The words of a form's choices (static/js/table/choices.js): no raw engine value reaches the player.
import assert from "node:assert/strict";
import { test } from "node:test";

import { planActions } from "../../static/js/table/actions.js";
import { choiceText, fieldTitle } from "../../static/js/table/choices.js";

test("Tresette's declaration: Italian field names and Sì / No", () => {
  assert.deepEqual(["ho", "busso", "per_te"].map((f) => fieldTitle(f)), ["Ho", "Busso", "Per te"]);
  assert.equal(choiceText("ho", true), "Sì");
  assert.equal(choiceText("per_te", false), "No");
});

test("Tresette's accusi and Cirulla's in words, the suit as the deck names it", () => {
  assert.equal(fieldTitle("combo"), "Accuso");
  assert.equal(choiceText("combo", "napoletana:d", { style: "napoletane" }), "Napoletana di denari");
  assert.equal(choiceText("combo", "napoletana:d", { style: "francesi" }), "Napoletana di quadri");
  assert.equal(choiceText("combo", "tre:A"), "Tre assi");
  assert.equal(choiceText("combo", "quattro:3"), "Quattro tre");
  assert.equal(fieldTitle("kind"), "Accuso");
  assert.deepEqual([choiceText("kind", "cirulla"), choiceText("kind", "decino")], ["Cirulla", "Decino"]);
  assert.equal(fieldTitle("some_field"), "Some field");
  assert.equal(choiceText("mazzetto", 2), null); // drawn by the caller
});

test("the words go through the page's translation", () => {
  const en = { Sì: "Yes", "Napoletana di denari": "Napoletana of coins", Ho: "I have" };
  const t = (s) => en[s] ?? s;
  assert.equal(choiceText("ho", true, { t }), "Yes");
  assert.equal(choiceText("combo", "napoletana:d", { t, style: "piacentine" }), "Napoletana of coins");
  assert.equal(fieldTitle("ho", t), "I have");
});

test("a form's yes/no field offers Sì before No, whatever order the specs come in", () => {
  const specs = [{ type: "dichiara", ho: true, busso: false }, { type: "dichiara", ho: false, busso: true }];
  const form = planActions(specs, []).forms[0];
  assert.deepEqual(form.fields.map((f) => [f.name, f.values.map((v) => v.value)]), [["ho", [true, false]], ["busso", [true, false]]]);
});
