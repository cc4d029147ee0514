// House rules in players' words, for the lobby and the table: an option's label and a value's
// words come from GET /api/games (`labels`, `choices`, `choice_labels`: each options module's
// LABELS and CHOICE_LABELS).

/** Options that are no house rule: the seat count (the table says it) and the copy choice
 *  (only old records use another). */
const NOT_HOUSE_RULES = new Set(["player_count", "copy_choice"]);

/** An option's name for players: the server's label, else its name with spaces. */
export function optionLabel(g, key) {
  return (g.labels || {})[key] || key.replaceAll("_", " ");
}

/** A value in words: the server's label for a value of a fixed set; else a number with its
 *  thousands separated ("3,000"), a switch "on" / "off", empty "default", a word with spaces. */
export function valueWords(g, key, value) {
  const choices = (g.choices || {})[key] || [];
  const i = choices.findIndex((c) => JSON.stringify(c) === JSON.stringify(value));
  const labels = (g.choice_labels || {})[key];
  if (i >= 0 && labels && labels[i]) return labels[i];
  if (value === null || value === undefined) return "default";
  if (typeof value === "number") return value.toLocaleString("en-US");
  if (typeof value === "boolean") return value ? "on" : "off";
  if (typeof value === "string") return value.replaceAll("_", " ");
  return JSON.stringify(value);
}

/** The house rules of `options` (an options JSON) that differ from `base` (another options
 *  JSON; the game's defaults when omitted), in the game's order: [{key, label, words}]. */
export function houseRuleChanges(g, options, base = null) {
  const from = base || g.options || {};
  const out = [];
  for (const key of Object.keys(g.options || {})) {
    if (NOT_HOUSE_RULES.has(key) || !(key in (options || {}))) continue;
    if (JSON.stringify(options[key]) === JSON.stringify(from[key])) continue;
    out.push({ key, label: optionLabel(g, key), words: valueWords(g, key, options[key]) });
  }
  return out;
}

/** A preset's whole options JSON: the defaults with the preset's changes. */
export function presetOptions(g, name) {
  return { ...(g.options || {}), ...((g.presets || {})[name] || {}) };
}

/** The preset whose options are exactly `options` (the first, in the server's order), else null. */
export function matchingPreset(g, options) {
  for (const name of Object.keys(g.presets || {})) {
    if (!houseRuleChanges(g, options, presetOptions(g, name)).length) return name;
  }
  return null;
}
