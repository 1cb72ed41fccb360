// A small Markdown renderer for the profile summary: headings, paragraphs, lists, block quotes, code, and
// inline code, bold, italics. It builds DOM nodes and sets text with textContent, so any HTML in the text is
// shown as text, never parsed. A Markdown link is shown as text too, its label and then its full target: the
// text comes from conversations anyone may have written into, and a link there ("[Login again](a web address)")
// is a phishing lure, never something to click through from the inspector.

function inline(parent, text) {
  // One pass, left to right: the earliest token wins; the text between tokens stays plain text.
  const token = /`([^`]+)`|\*\*([^*]+)\*\*|__([^_]+)__|\*([^*\s][^*]*)\*|_([^_\s][^_]*)_|\[([^\]]+)\]\(([^)\s]+)\)/g;
  let last = 0;
  for (const m of text.matchAll(token)) {
    if (m.index > last) parent.append(text.slice(last, m.index));
    let node;
    if (m[1] !== undefined) {
      node = document.createElement("code");
      node.textContent = m[1];
    } else if (m[2] !== undefined || m[3] !== undefined) {
      node = document.createElement("strong");
      inline(node, m[2] ?? m[3]);
    } else if (m[4] !== undefined || m[5] !== undefined) {
      node = document.createElement("em");
      inline(node, m[4] ?? m[5]);
    } else {
      node = document.createElement("span");
      node.className = "link-as-text";
      node.append(m[6], " ");
      const target = document.createElement("code");
      target.textContent = `<${m[7]}>`;
      node.append(target);
    }
    parent.append(node);
    last = m.index + m[0].length;
  }
  if (last < text.length) parent.append(text.slice(last));
}

function element(tag, text) {
  const node = document.createElement(tag);
  inline(node, text);
  return node;
}

export function renderMarkdown(source) {
  const root = document.createElement("div");
  root.className = "markdown";
  const lines = String(source ?? "").replace(/\r\n?/g, "\n").split("\n");
  let paragraph = [];
  let list = null;
  const flush = () => {
    if (paragraph.length) root.append(element("p", paragraph.join(" ")));
    paragraph = [];
    list = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    let m;
    if (/^\s*```/.test(line)) {
      flush();
      const code = [];
      for (i++; i < lines.length && !/^\s*```/.test(lines[i]); i++) code.push(lines[i]);
      const pre = document.createElement("pre");
      const c = document.createElement("code");
      c.textContent = code.join("\n");
      pre.append(c);
      root.append(pre);
    } else if ((m = /^(#{1,6})\s+(.*)$/.exec(line))) {
      flush();
      // The page has its own h1: a document's levels start one below it.
      root.append(element(`h${Math.min(m[1].length + 1, 6)}`, m[2].replace(/\s+#+\s*$/, "")));
    } else if ((m = /^\s*([-*+]|\d+[.)])\s+(.*)$/.exec(line))) {
      const ordered = /\d/.test(m[1]);
      if (paragraph.length) flush();
      if (!list || (list.tagName === "OL") !== ordered) {
        list = document.createElement(ordered ? "ol" : "ul");
        root.append(list);
      }
      list.append(element("li", m[2]));
    } else if ((m = /^>\s?(.*)$/.exec(line))) {
      flush();
      root.append(element("blockquote", m[1]));
    } else if (/^\s*$/.test(line)) {
      flush();
    } else if (/^(-{3,}|\*{3,})\s*$/.test(line)) {
      flush();
      root.append(document.createElement("hr"));
    } else if (list && /^\s+\S/.test(line)) {
      list.lastElementChild.append(" ");
      inline(list.lastElementChild, line.trim());
    } else {
      list = null;
      paragraph.push(line.trim());
    }
  }
  flush();
  return root;
}
