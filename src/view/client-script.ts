/**
 * The view's only client code, served as /assets/view.js: more item slots for list fields of the Play
 * forms, and the Live page's polling for the calls after the last one shown. Everything else works
 * without script (plain links and forms).
 */
export const CLIENT_SCRIPT = `"use strict";
document.addEventListener("click", (event) => {
  const button = event.target.closest && event.target.closest("button.add-item");
  if (!button) return;
  const list = button.closest("fieldset.array");
  const slots = list.querySelectorAll(":scope > .slot");
  const last = slots[slots.length - 1];
  const index = slots.length;
  const path = list.dataset.path;
  const slot = last.cloneNode(true);
  slot.dataset.index = String(index);
  const from = "arg." + path + "." + (index - 1);
  const to = "arg." + path + "." + index;
  for (const el of slot.querySelectorAll("[name]")) {
    if (el.name.startsWith(from)) el.name = to + el.name.slice(from.length);
    el.id = ("f-" + list.closest("form").dataset.tool + "-" + el.name.slice(4)).replace(/[^A-Za-z0-9_-]/g, "_");
    if ("value" in el && el.tagName !== "SELECT") el.value = "";
    if (el.tagName === "SELECT") el.selectedIndex = 0;
  }
  for (const label of slot.querySelectorAll("label[for]")) {
    const input = label.querySelector("[name]");
    if (input) label.htmlFor = input.id;
  }
  last.after(slot);
  const first = slot.querySelector("input,select,textarea");
  if (first) first.focus();
});

const live = document.body.dataset.live;
if (live) {
  let next = Number(document.body.dataset.next || "0");
  const calls = document.getElementById("live-calls");
  const status = document.getElementById("live-status");
  const final = document.getElementById("live-final");
  const poll = async () => {
    try {
      const res = await fetch("/live/" + encodeURIComponent(live) + "/calls?since=" + next, { headers: { accept: "application/json" } });
      const body = await res.json();
      if (!res.ok) { status.textContent = body.error || "the session is gone"; return; }
      if (body.html) calls.insertAdjacentHTML("beforeend", body.html);
      next = body.next;
      if (body.final_html) final.innerHTML = body.final_html;
      status.textContent = "watching: " + next + " calls (updated " + new Date().toLocaleTimeString() + ")";
    } catch (error) {
      status.textContent = "cannot reach the view server: " + error.message;
    }
    setTimeout(poll, 1000);
  };
  setTimeout(poll, 1000);
}
`;
