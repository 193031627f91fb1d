// The sentences the pages' scripts show, in the reader's language: the page carries them
// as JSON (#bitka-words); say("key", {name: value}) fills their %(name)s values, a number
// written as the page's language writes it; bitkaWhen says a time of the log the same way.
// A sentence said of a number comes in the language's plural categories (one, few, many,
// other): the one Intl.PluralRules names for values.count is said.
"use strict";

window.bitkaSay = function (key, values) {
  const carried = document.getElementById("bitka-words");
  const words = carried ? JSON.parse(carried.textContent) : {};
  const language = document.documentElement.lang || "en";
  let said = words[key] || key;
  if (typeof said === "object") {
    const category = new Intl.PluralRules(language).select(Number(values && values.count) || 0);
    said = said[category] || said.other || Object.values(said)[0];
  }
  const shown = (value) => (typeof value === "number" ? new Intl.NumberFormat(language).format(value) : String(value));
  return said.replace(/%\((\w+)\)s/g, (whole, name) => (values && name in values ? shown(values[name]) : whole));
};

window.bitkaWhen = function (stamp) {
  const moment = new Date(stamp);
  if (Number.isNaN(moment.getTime())) return String(stamp);
  const language = document.documentElement.lang || "en";
  return new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC" })
    .format(moment) + " UTC";
};
