// A tiny DOM builder: h("button", {class: "x", onclick: f}, "text", child);
// fill() replaces an element's children, patch() brings them to what was built
// by changing the nodes already there rather than replacing them: a button
// under the pointer stays the same button while the table redraws around it (a
// click that lands between a redraw's removal and insertion was lost), and
// focus, selection and scroll positions stay where they were.

const HANDLERS = Symbol("handlers");
const PROPS = Symbol("props");

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  el[HANDLERS] = {};
  el[PROPS] = {};
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") {
      el[HANDLERS][k] = v;
      el[k] = v;
    } else if (k === "class") el.className = v;
    else if (k === "style") {
      // Through the CSSOM: the Content-Security-Policy refuses style attributes.
      for (const [name, value] of Object.entries(v)) el.style.setProperty(name, String(value));
    }
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k === "value" || k === "checked") el[PROPS][k] = k === "checked" ? Boolean(v) : v;
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  append(el, children);
  // After the children: a select's value needs its options.
  for (const [k, v] of Object.entries(el[PROPS])) el[k] = v;
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** Replaces an element's children. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/**
 * Brings an element's children to `children` (as built by h), keeping the nodes it
 * can. For views that draw everything from their state on each change and keep no
 * reference to what they built (the table): a reference kept to a node built for
 * this call may end up outside the page, its old twin kept in its place.
 */
export function patch(el, ...children) {
  const fresh = document.createDocumentFragment();
  append(fresh, children);
  morphChildren(el, [...fresh.childNodes]);
  return el;
}

// A node's identity across redraws: its card, focus key, id or seat, if it has one.
function keyOf(node) {
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  const d = node.dataset;
  const k = d.card ?? d.focusKey ?? (node.id || undefined) ?? (d.seat !== undefined ? `seat-${d.seat}` : undefined);
  return k ? `${node.tagName}:${k}` : null;
}

// What an unkeyed node must share with the one it replaces: its tag and its first
// class (a seat's "badges" line is not its "tricks" line, whatever comes and goes).
function kindOf(node) {
  if (node.nodeType !== Node.ELEMENT_NODE) return `#${node.nodeType}`;
  return `${node.tagName}.${node.classList[0] ?? ""}`;
}

function morphChildren(parent, next) {
  const old = [...parent.childNodes];
  const byKey = new Map();
  const byKind = new Map(); // kind -> the unkeyed old nodes of that kind, in order
  for (const o of old) {
    const k = keyOf(o);
    if (k) {
      if (!byKey.has(k)) byKey.set(k, o);
    } else {
      const list = byKind.get(kindOf(o)) ?? [];
      list.push(o);
      byKind.set(kindOf(o), list);
    }
  }
  const used = new Set();
  const kept = [];
  for (const n of next) {
    const k = keyOf(n);
    let match = null;
    if (k) {
      const o = byKey.get(k);
      if (o && !used.has(o)) match = o;
    } else {
      match = byKind.get(kindOf(n))?.shift() ?? null;
    }
    if (match) {
      used.add(match);
      morph(match, n);
      kept.push(match);
    } else {
      kept.push(n);
    }
  }
  for (const o of old) if (!used.has(o)) o.remove();
  // Put each in its place, moving only what is out of order.
  for (let i = 0; i < kept.length; i++) {
    if (parent.childNodes[i] !== kept[i]) parent.insertBefore(kept[i], parent.childNodes[i] ?? null);
  }
}

function morph(o, n) {
  if (o.nodeType !== Node.ELEMENT_NODE) {
    if (o.nodeValue !== n.nodeValue) o.nodeValue = n.nodeValue;
    return;
  }
  for (const a of [...o.attributes]) if (a.name !== "style" && !n.hasAttribute(a.name)) o.removeAttribute(a.name);
  for (const a of n.attributes) if (a.name !== "style" && o.getAttribute(a.name) !== a.value) o.setAttribute(a.name, a.value);
  if (o.style.cssText !== n.style.cssText) o.style.cssText = n.style.cssText;
  const oldHandlers = o[HANDLERS] ?? {};
  const newHandlers = n[HANDLERS] ?? {};
  for (const k of Object.keys(oldHandlers)) if (!(k in newHandlers)) o[k] = null;
  for (const [k, f] of Object.entries(newHandlers)) o[k] = f;
  o[HANDLERS] = newHandlers;
  morphChildren(o, [...n.childNodes]);
  // A value or a check the page set is set again, unless the person is editing that field.
  for (const [k, v] of Object.entries(n[PROPS] ?? {})) if (o[k] !== v && document.activeElement !== o) o[k] = v;
  o[PROPS] = n[PROPS] ?? {};
}

/** Keeps focus on the element with the same data-focus-key across a re-render. */
export function focusKey(root) {
  const a = document.activeElement;
  return a && root.contains(a) ? a.dataset.focusKey ?? null : null;
}

export function restoreFocus(root, key) {
  if (!key) return;
  const el = root.querySelector(`[data-focus-key="${CSS.escape(key)}"]`);
  if (el && !el.disabled && document.activeElement !== el) el.focus();
}
