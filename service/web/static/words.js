// The sentences the pages' scripts show, in the reader's language: the page carries them
// as JSON (#bitka-words); say("key", {name: value}) fills their %(name)s values.
"use strict";

window.bitkaSay = function (key, values) {
  const carried = document.getElementById("bitka-words");
  const words = carried ? JSON.parse(carried.textContent) : {};
  const said = words[key] || key;
  return said.replace(/%\((\w+)\)s/g, (whole, name) => (values && name in values ? String(values[name]) : whole));
};
