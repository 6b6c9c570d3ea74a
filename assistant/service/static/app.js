// Hearth review page. Every piece of text from memory or transcripts goes into the page as a text node
// (textContent / createTextNode), never as markup: a "<script>" said aloud stays words on the screen.
"use strict";

const CSRF = document.querySelector('meta[name="hearth-csrf"]').content;
const SVG = "http://www.w3.org/2000/svg";
const main = document.getElementById("main");
const PAGE = 50;  // conversations per page

// -- small DOM helpers (strings become text nodes) -----------------------------------------------
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "class") node.className = v;
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

function svg(tag, attrs, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

function link(href, text, cls) { return el("a", { href, class: cls }, text); }
function entityLink(id, name) { return id ? link("#/e/" + encodeURIComponent(id), name, "entity") : el("span", {}, name); }
function when(iso) { return iso ? iso.replace("T", " ").replace(/(\.\d+)?Z$/, "") : ""; }
function day(iso) { return iso ? iso.slice(0, 10) : "now"; }
function rel(f) { return f.label ? `${f.relation} (${f.label})` : f.relation; }

// -- talking to the service ------------------------------------------------------------------------
class ApiError extends Error {
  constructor(err) { super(err.message); this.code = err.code; this.hint = err.hint; }
}

async function getJSON(path) {
  const r = await fetch(path, { headers: { accept: "application/json" } });
  const body = await r.json();
  if (!r.ok) throw new ApiError(body.error || { code: "http_" + r.status, message: r.statusText });
  return body;
}

async function postJSON(path, body) {
  const r = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json", "x-hearth-csrf": CSRF },
    body: JSON.stringify(body || {}),
  });
  const data = await r.json();
  if (!r.ok) throw new ApiError(data.error || { code: "http_" + r.status, message: r.statusText });
  return data;
}

function showError(err) {
  return el("div", { class: "error", role: "alert" },
    el("strong", {}, `[${err.code || "error"}] `), err.message,
    err.hint ? el("div", { class: "hint" }, "hint: ", err.hint) : null);
}

let flash = null;  // a message shown once, on the page drawn after an action
function takeFlash() {
  const f = flash;
  flash = null;
  return f ? el("div", { class: "flash", role: "status" }, f) : null;
}

// -- actions with a confirmation ---------------------------------------------------------------
// The confirmation replaces the buttons in place: nothing happens until "Yes" is pressed.
function confirmIn(box, question, yesLabel, extra, run) {
  const restore = Array.from(box.childNodes);
  const cancel = () => { box.replaceChildren(...restore); };
  const yes = el("button", { class: "danger confirm-yes", type: "button" }, yesLabel);
  const panel = el("span", { class: "confirm" }, el("span", { class: "question" }, question), extra || null, yes,
    el("button", { type: "button", class: "confirm-no", onclick: cancel }, "Cancel"));
  yes.addEventListener("click", async () => {
    yes.disabled = true;
    try {
      const done = await run();  // a message, or {message, go: the hash to show it on}
      flash = typeof done === "string" ? done : done.message;
      if (done.go && location.hash !== done.go) location.hash = done.go;  // hashchange draws it
      else await route();
    } catch (err) {
      panel.append(showError(err));
      yes.disabled = false;
    }
  });
  box.replaceChildren(panel);
  const input = panel.querySelector("input");
  (input || yes).focus();
}

function factText(f) { return `${f.subject} ${rel(f)} ${f.object}` + (f.planned_for ? ` (planned for ${f.planned_for})` : ""); }

function factActions(f) {
  const box = el("span", { class: "actions" });
  if (!f || f.status === "retracted") return box;
  const id = encodeURIComponent(f.id);
  if (f.status === "current") {
    box.append(
      el("button", { type: "button", class: "act-end", onclick: () => confirmIn(box,
        `Mark "${factText(f)}" as no longer true (it stays in the history)?`, "Yes, no longer true", null,
        async () => { await postJSON(`/api/facts/${id}/end`); return `Marked no longer true: ${factText(f)}`; }) },
      "No longer true"),
      el("button", { type: "button", class: "act-correct", onclick: () => {
        const input = el("input", { type: "text", class: "correct-value", "aria-label": "corrected value",
          placeholder: f.object });
        confirmIn(box, `Correct "${factText(f)}": it was wrong, the right ${f.relation} is`, "Save correction", input,
          async () => {
            const value = input.value.trim();
            if (!value) throw new ApiError({ code: "invalid_input", message: "type the corrected value first" });
            await postJSON(`/api/facts/${id}/correct`, { object: value });
            return `Corrected: ${f.subject} ${rel(f)} ${value} (was ${f.object})`;
          });
      } }, "Correct…"));
  }
  box.append(el("button", { type: "button", class: "act-forget-fact danger-outline", onclick: () => confirmIn(box,
    `Forget "${factText(f)}" for good (deleted, not kept in the history)?`, "Yes, forget it", null,
    async () => { await postJSON(`/api/facts/${id}/forget`); return `Forgot: ${factText(f)}`; }) }, "Forget fact"));
  return box;
}

// -- pages --------------------------------------------------------------------------------------
async function conversationsPage(params) {
  const q = params.get("q") || "", speaker = params.get("speaker") || "";
  const since = params.get("since") || "", until = params.get("until") || "";
  const form = el("form", { class: "filters", onsubmit: (ev) => {
    ev.preventDefault();
    const p = new URLSearchParams();
    for (const k of ["q", "speaker", "since", "until"]) {
      const v = form.elements[k].value.trim();
      if (v) p.set(k, v);
    }
    location.hash = "#/?" + p.toString();
  } },
  el("input", { name: "q", type: "search", placeholder: "search what was said", value: q, "aria-label": "search" }),
  el("input", { name: "speaker", type: "text", placeholder: "speaker", value: speaker, "aria-label": "speaker" }),
  el("label", {}, "from ", el("input", { name: "since", type: "date", value: since })),
  el("label", {}, "to ", el("input", { name: "until", type: "date", value: until })),
  el("button", { type: "submit" }, "Search"));
  const query = new URLSearchParams();
  if (q) query.set("q", q);
  if (speaker) query.set("speaker", speaker);
  if (since) query.set("since", since);
  if (until) query.set("until", nextDay(until));  // "to" a day includes that day
  const offset = Math.max(0, parseInt(params.get("offset") || "0", 10) || 0);
  query.set("limit", String(PAGE));
  if (offset) query.set("offset", String(offset));
  const data = await getJSON("/api/conversations?" + query.toString());
  const pageLink = (o, text) => {
    const p = new URLSearchParams(params);
    if (o) p.set("offset", String(o)); else p.delete("offset");
    return link("#/?" + p.toString(), text, "pager");
  };
  const pager = el("p", { class: "pager-row" },
    offset ? pageLink(Math.max(0, offset - PAGE), "← newer") : null, " ",
    data.conversations.length === PAGE ? pageLink(offset + PAGE, "older →") : null);
  const rows = data.conversations.map((c) => el("li", { class: "conv-row" },
    el("div", { class: "conv-head" },
      link("#/c/" + encodeURIComponent(c.id), c.id, "conv-link"),
      el("time", { datetime: c.started_at }, when(c.started_at)),
      el("span", { class: "muted" }, `${c.turns} turns · ${c.changes} learned · ${c.speakers.join(", ")}`),
      c.learn_status ? null : el("span", { class: "badge pending" }, "not learned yet")),
    el("div", { class: "preview" }, c.preview)));
  return [el("h1", {}, "Conversations"), form,
    rows.length ? el("ul", { class: "conversations" }, rows) : el("p", { class: "muted" }, "No conversations match."),
    pager];
}

function nextDay(d) {
  const t = new Date(d + "T00:00:00Z");
  if (isNaN(t)) return d;
  t.setUTCDate(t.getUTCDate() + 1);
  return t.toISOString().slice(0, 10);
}

function timings(t) {
  if (!t.timings) return null;
  const parts = Object.entries(t.timings).map(([k, v]) => `${k} ${Math.round(v)} ms`);
  return parts.length ? el("div", { class: "timings" }, parts.join(" · ")) : null;
}

function changeItem(c) {
  const a = c.arc;
  const status = a ? a.status : "forgotten";
  return el("li", { class: `change kind-${c.kind}`, "data-arc": c.arc_id },
    el("span", { class: `badge ${c.kind}` }, c.kind),
    " ", a ? entityLink(a.subject_id, c.subject) : c.subject, " ", el("span", { class: "rel" }, c.relation), " ",
    a ? entityLink(a.object_id, c.object) : c.object,
    c.reason ? el("span", { class: "muted" }, ` (${c.reason})`) : null,
    status !== "current" ? el("span", { class: `badge status-${status}` }, status) : null,
    c.evidence ? el("blockquote", { class: "evidence" }, c.evidence) : null,
    a ? factActions(a) : null);
}

async function conversationPage(id) {
  const c = await getJSON("/api/conversations/" + encodeURIComponent(id));
  const byTurn = new Map();
  for (const ch of c.changes) {
    const k = ch.turn_idx === null ? "none" : ch.turn_idx;
    if (!byTurn.has(k)) byTurn.set(k, []);
    byTurn.get(k).push(ch);
  }
  const turns = c.turns.map((t) => {
    const learned = byTurn.get(t.idx) || [];
    return el("li", { class: `turn speaker-${t.speaker === "assistant" ? "assistant" : "person"}` },
      el("div", { class: "turn-head" }, el("time", { datetime: t.at }, when(t.at)), " ",
        el("strong", { class: "speaker" }, t.speaker)),
      el("p", { class: "said" }, t.text),
      timings(t),
      learned.length ? el("div", { class: "learned" }, el("h3", {}, "Learned from this"),
        el("ul", {}, learned.map(changeItem))) : null);
  });
  const loose = byTurn.get("none") || [];
  const n = c.changes.length;
  return [el("p", {}, link("#/", "← Conversations")),
    el("h1", {}, "Conversation ", el("span", { class: "conv-id" }, c.id)),
    el("p", { class: "muted" }, c.learn_status ? `Learned from at ${when(c.learned_at)}: ${n} change(s)` +
      (c.learn_status === "learned" ? "" : ` (${c.learn_status})`) : "Not learned from yet.",
      c.learn_note ? ` — ${c.learn_note}` : ""),
    el("ol", { class: "turns" }, turns),
    loose.length ? el("div", { class: "learned" }, el("h3", {}, "Also learned"), el("ul", {}, loose.map(changeItem)))
      : null];
}

// the newest correction not undone yet, with a button to undo it (its record stays, marked undone)
function lastCorrection(list) {
  const c = list.find((x) => !x.undone_at);
  if (!c) return null;
  const box = el("span", { class: "actions" });
  box.append(el("button", { type: "button", class: "act-undo-correction", onclick: () => confirmIn(box,
    `Undo your last correction (${c.summary})? The fact comes back; the correction stays in the history.`,
    "Yes, undo it", null, async () => {
      await postJSON("/api/corrections/undo-last");
      return `Undid the correction: ${c.summary}`;
    }) }, "Undo last correction"));
  return el("p", { class: "last-correction" }, el("span", { class: "muted" }, `Last correction (${when(c.at)}): `),
    c.summary, " ", box);
}

async function entitiesPage() {
  const [data, corr] = await Promise.all([getJSON("/api/entities"), getJSON("/api/corrections?limit=20")]);
  return [el("h1", {}, "Memory"), lastCorrection(corr.corrections), el("table", { class: "entities" },
    el("thead", {}, el("tr", {}, el("th", {}, "name"), el("th", {}, "type"), el("th", {}, "current facts"),
      el("th", {}, "last mentioned"))),
    el("tbody", {}, data.entities.map((e) => el("tr", {},
      el("td", {}, entityLink(e.id, e.name), e.aliases.length ? el("span", { class: "muted" },
        ` (also ${e.aliases.join(", ")})`) : null),
      el("td", {}, e.type.toLowerCase()), el("td", { class: "num" }, e.current_facts),
      el("td", {}, when(e.last_seen))))))];
}

// decayed weight from the last reinforcement on, with "now" marked
function weightPlot(f, nowIso) {
  const W = 160, H = 40, pad = 2;
  const pts = f.weight_samples;
  const t0 = Date.parse(pts[0][0]), t1 = Date.parse(pts[pts.length - 1][0]);
  const top = Math.max(1, ...pts.map((p) => p[1]));
  const x = (t) => pad + (W - 2 * pad) * (t - t0) / Math.max(1, t1 - t0);
  const y = (w) => H - pad - (H - 2 * pad) * w / top;
  const s = svg("svg", { class: "weight-plot", width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: "img" });
  s.append(svg("title", {}, `weight ${f.weight ?? "?"} now; from ${day(pts[0][0])} (last reinforced) ` +
    `to ${day(pts[pts.length - 1][0])}`));
  s.append(svg("polyline", { points: pts.map((p) => `${x(Date.parse(p[0])).toFixed(1)},${y(p[1]).toFixed(1)}`).join(" "),
    class: "weight-line" }));
  const nx = x(Date.parse(nowIso));
  s.append(svg("line", { x1: nx, x2: nx, y1: 0, y2: H, class: "now-line" }));
  return s;
}

// each fact a bar from valid_from to valid_to (or now): what was true when, and what was corrected
function timeline(facts, nowIso) {
  const now = Date.parse(nowIso);
  const starts = facts.map((f) => Date.parse(f.valid_from));
  const t0 = Math.min(...starts), t1 = Math.max(now, ...facts.map((f) => f.valid_to ? Date.parse(f.valid_to) : now));
  const W = 720, row = 22, left = 260, H = facts.length * row + 24;
  const x = (t) => left + (W - left - 10) * (t - t0) / Math.max(1, t1 - t0);
  const s = svg("svg", { class: "timeline", width: "100%", viewBox: `0 0 ${W} ${H}`, role: "img" });
  s.append(svg("title", {}, "When each fact was true"));
  facts.forEach((f, i) => {
    const yy = i * row + 4;
    const end = f.valid_to ? Date.parse(f.valid_to) : now;
    s.append(svg("text", { x: 4, y: yy + 13, class: `tl-label status-${f.status}` }, factText(f)));
    const bar = svg("rect", { x: x(Date.parse(f.valid_from)), y: yy + 3, height: row - 8, rx: 3,
      width: Math.max(3, x(end) - x(Date.parse(f.valid_from))), class: `tl-bar status-${f.status}` });
    bar.append(svg("title", {}, `${factText(f)}: ${day(f.valid_from)} → ${f.valid_to ? day(f.valid_to) : "now"}` +
      ` (learned ${day(f.recorded_at)}${f.expired_at ? ", retracted " + day(f.expired_at) : ""})`));
    s.append(bar);
  });
  const axisY = facts.length * row + 18;
  s.append(svg("text", { x: left, y: axisY, class: "tl-axis" }, day(new Date(t0).toISOString())));
  s.append(svg("text", { x: W - 10, y: axisY, class: "tl-axis", "text-anchor": "end" }, "now"));
  return s;
}

const SOURCE_NAMES = { "user-review": "your correction on this page", cli: "you, on the command line" };

function sourcesList(f) {
  const said = f.sources.filter((s) => s.text !== null);
  const other = f.sources.filter((s) => s.text === null).map((s) => SOURCE_NAMES[s.id] || s.id);
  return el("div", { class: "sources" },
    said.map((s) => el("blockquote", { class: "evidence" }, s.text, " ",
      el("cite", {}, "— ", s.speaker, ", ", link("#/c/" + encodeURIComponent(s.conversation), when(s.at))))),
    other.length ? el("span", { class: "muted" }, "from: ", other.join(", ")) : null);
}

async function entityPage(id) {
  const d = await getJSON("/api/entities/" + encodeURIComponent(id));
  const e = d.entity;
  const current = d.facts.filter((f) => f.status === "current");
  const head = el("div", { class: "entity-head" },
    el("h1", {}, e.name, " ", el("span", { class: "muted small" }, e.type.toLowerCase())),
    e.aliases.length ? el("p", { class: "muted" }, "also called ", e.aliases.join(", ")) : null);
  const forgetBox = el("span", { class: "actions" });
  forgetBox.append(el("button", { type: "button", class: "act-forget-entity danger-outline", onclick: () =>
    confirmIn(forgetBox, e.is_user ? "Forget every fact about you (you stay)?"
      : `Forget ${e.name} and every fact about them, for good?`, `Yes, forget ${e.name}`, null, async () => {
      const r = await postJSON(`/api/entities/${encodeURIComponent(e.id)}/forget`);
      return { message: `Forgot ${e.name}: ${r.deleted_arcs.length} fact(s) deleted.`, go: "#/entities" };
    }) }, e.is_user ? "Forget everything about me" : `Forget ${e.name}`));
  head.append(forgetBox);
  const facts = el("table", { class: "facts" },
    el("thead", {}, el("tr", {}, ["fact", "since", "weight over time", "seen", ""].map((h) => el("th", {}, h)))),
    el("tbody", {}, current.map((f) => el("tr", { class: "fact", "data-arc": f.id },
      el("td", {}, entityLink(f.subject_id, f.subject), " ", el("span", { class: "rel" }, rel(f)), " ",
        entityLink(f.object_id, f.object), sourcesList(f)),
      el("td", {}, day(f.valid_from)),
      el("td", {}, weightPlot(f, d.now), el("div", { class: "muted small" }, `weight ${f.weight}`)),
      el("td", { class: "num" }, f.reinforcements + 1),
      el("td", {}, factActions(f))))));
  const history = el("ol", { class: "history" }, d.facts.map((f) => el("li", { class: `status-${f.status}` },
    el("span", { class: `badge status-${f.status}` }, f.status), " ", factText(f), " ",
    el("span", { class: "muted" }, `true ${day(f.valid_from)} → ${f.valid_to ? day(f.valid_to) : "now"}; ` +
      `learned ${when(f.recorded_at)}` + (f.closed_at ? `; ended ${when(f.closed_at)}` : "") +
      (f.expired_at ? `; retracted (corrected) ${when(f.expired_at)}` : "")))));
  return [el("p", {}, link("#/entities", "← Memory")), head,
    el("h2", {}, "Current facts"),
    current.length ? facts : el("p", { class: "muted" }, "Nothing is currently true about ", e.name, "."),
    el("h2", {}, "History"),
    d.facts.length ? timeline(d.facts, d.now) : null,
    d.facts.length ? history : el("p", { class: "muted" }, "No facts.")];
}

// consolidation reports, newest first: what was pruned, merged (with the evidence) and left alone
function mergeItem(m) {
  const box = el("span", { class: "actions" });
  if (!m.undone_at) {
    box.append(el("button", { type: "button", class: "act-undo-merge", onclick: () => confirmIn(box,
      `Split "${m.loser}" from ${m.survivor} again?`, "Yes, undo the merge", null, async () => {
        await postJSON(`/api/merges/${encodeURIComponent(m.id)}/undo`);
        return `Undid the merge: ${m.loser} and ${m.survivor} are two again.`;
      }) }, "Undo merge"));
  }
  return el("li", { class: "merge", "data-merge": m.id },
    el("span", { class: "badge merged" }, m.rule), " ", el("strong", {}, m.loser), " → ",
    entityLink(m.undone_at ? null : m.survivor_id, m.survivor),
    m.undone_at ? el("span", { class: "badge status-retracted" }, `undone ${day(m.undone_at)}`) : null,
    el("ul", { class: "evidence-list" }, (m.evidence || []).map((e) => el("li", { class: "muted" }, e))), box);
}

async function consolidationPage() {
  const data = await getJSON("/api/consolidations?limit=30");
  const reports = data.reports.map((r) => el("li", { class: "report", "data-report": r.id },
    el("div", { class: "report-head" }, el("time", { datetime: r.at }, when(r.at)), " ",
      el("span", { class: "muted" }, `pruned ${r.pruned_arcs} faded arc(s) · removed ${r.removed_entities} ` +
        `orphan(s) · merged ${r.merged.length} · closed ${r.closed.length} · added ${r.added.length}`)),
    r.merged.length ? el("ul", { class: "merges" }, r.merged.map(mergeItem)) : null,
    r.left_alone.length ? el("details", {}, el("summary", {}, `${r.left_alone.length} possible duplicate(s) left alone`),
      el("ul", {}, r.left_alone.map((d) => el("li", {}, `${d.loser} / ${d.survivor} (${d.rule}): ${d.reason}`)))) : null,
    r.relearning ? el("div", { class: "muted small" }, `re-learning: ${r.relearning}`) : null));
  return [el("h1", {}, "Consolidation"),
    reports.length ? el("ol", { class: "reports" }, reports)
      : el("p", { class: "muted" }, "No consolidation has run yet (it runs nightly, or `assistant consolidate`).")];
}

// -- routing ------------------------------------------------------------------------------------
async function route() {
  const hash = location.hash || "#/";
  const [path, qs] = hash.slice(1).split("?");
  const params = new URLSearchParams(qs || "");
  let content;
  try {
    if (path.startsWith("/c/")) content = await conversationPage(decodeURIComponent(path.slice(3)));
    else if (path.startsWith("/e/")) content = await entityPage(decodeURIComponent(path.slice(3)));
    else if (path === "/entities") content = await entitiesPage();
    else if (path === "/consolidation") content = await consolidationPage();
    else content = await conversationsPage(params);
  } catch (err) {
    content = [showError(err), el("p", {}, link("#/", "← Conversations"))];
  }
  main.replaceChildren(...[takeFlash(), content].flat().filter(Boolean));
  document.body.dataset.page = path.split("/")[1] || "conversations";
  document.body.dataset.ready = String(Date.now());
}

window.addEventListener("hashchange", route);
route();
