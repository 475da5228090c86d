// The search's ranking by meaning (issue #72), which jitdocs-search.js loads on a reader's first
// search, never with a page. A query is embedded as the build embedded each section
// (engine/site/search_vectors.py): its WordPiece tokens (BERT's uncased tokenizer, as
// all-MiniLM-L6-v2 reads text; engine/run/search_table.py is the same in Python, and
// tests/search/test_tokenizer.py holds both to the model's own), each token's row of the static
// table distilled from that model (`nox -s search_model`), weighted by how rare the token is in
// the site's sections, averaged. Sections are ranked by cosine similarity with it, each by the
// best of its own vector and those of the learner questions that link it.
"use strict"

// ---------------------------------------------------------------- the tokenizer
const CHINESE = [[0x4E00, 0x9FFF], [0x3400, 0x4DBF], [0x20000, 0x2A6DF], [0x2A700, 0x2B73F],
  [0x2B740, 0x2B81F], [0x2B820, 0x2CEAF], [0xF900, 0xFAFF], [0x2F800, 0x2FA1F]]
const ASCII_PUNCTUATION = new Set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
const LONGEST_WORD = 100  // code points; a longer word is one unknown token
const UNKNOWN = "[UNK]"

// Control characters dropped, white space a space, Chinese characters spaced, accents stripped,
// lower case, in BertNormalizer's order.
function normalize(text) {
  let kept = ""
  for (const char of text) {
    if (char === "\0" || char === "\ufffd" || (!"\t\n\r".includes(char) && /\p{C}/u.test(char)))
      continue
    const code = char.codePointAt(0)
    if (/\p{White_Space}/u.test(char)) kept += " "
    else kept += CHINESE.some(([low, high]) => low <= code && code <= high) ? ` ${char} ` : char
  }
  let out = ""
  for (const char of kept.normalize("NFD")) if (!/\p{Mn}/u.test(char)) out += char.toLowerCase()
  return out
}

const isPunctuation = char => ASCII_PUNCTUATION.has(char) || /\p{P}/u.test(char)

// Split at white space, each punctuation character a word of its own.
function words(text) {
  const found = []
  for (const part of text.split(" ")) {
    let word = ""
    for (const char of part) {
      if (isPunctuation(char)) {
        if (word) found.push(word)
        found.push(char)
        word = ""
      } else word += char
    }
    if (word) found.push(word)
  }
  return found
}

// The longest piece of the vocabulary first, then the longest "##" piece after it, and so on; a
// word that does not come apart so is one unknown token.
function pieces(word, ids) {
  const chars = Array.from(word)
  if (chars.length > LONGEST_WORD) return [UNKNOWN]
  const found = []
  for (let start = 0; start < chars.length;) {
    let end = chars.length, piece
    for (; end > start; end--) {
      piece = (start ? "##" : "") + chars.slice(start, end).join("")
      if (ids.has(piece)) break
    }
    if (end === start) return [UNKNOWN]
    found.push(piece)
    start = end
  }
  return found
}

function tokenizer(vocab) {
  const ids = new Map(vocab.map((token, id) => [token, id]))
  const tokens = text => words(normalize(text)).flatMap(word => pieces(word, ids))
  return { tokens, encode: text => tokens(text).map(token => ids.get(token)) }
}

// ---------------------------------------------------------------- the data
// The table's layout: "JDST", rows and columns (uint32), a float32 scale per column, int8 rows.
function readTable(buffer) {
  const view = new DataView(buffer)
  const magic = String.fromCharCode(...new Uint8Array(buffer, 0, 4))
  if (magic !== "JDST") throw new Error("jitdocs-meaning.js: tokens.bin is not a token table")
  const rows = view.getUint32(4, true), columns = view.getUint32(8, true)
  const scales = new Float32Array(buffer.slice(12, 12 + 4 * columns))
  return { rows, columns, scales, values: new Int8Array(buffer, 12 + 4 * columns, rows * columns) }
}

function readSections(data) {
  const bytes = Uint8Array.from(atob(data.vectors), char => char.charCodeAt(0))
  const weights = new Map(Object.entries(data.weights).map(([id, weight]) => [+id, weight]))
  return { ...data, vectors: new Int8Array(bytes.buffer), weights }
}

// The three files, fetched once a worker (the browser's cache keeps them between pages).
async function load(base) {
  const get = async (name, as) => {
    const response = await fetch(new URL(name, base))
    if (!response.ok) throw new Error(`jitdocs-meaning.js: ${name}: ${response.status}`)
    return response[as]()
  }
  const [vocab, table, sections] = await Promise.all([
    get("vocab.txt", "text"), get("tokens.bin", "arrayBuffer"), get("sections.json", "json")])
  return model(vocab.split("\n").slice(0, -1), readTable(table), readSections(sections))
}

// ---------------------------------------------------------------- the ranking
function model(vocab, table, sections) {
  const { encode } = tokenizer(vocab)
  const { columns, scales, values } = table
  function embed(text) {
    const vector = new Float32Array(columns)
    for (const id of encode(text)) {
      const weight = (sections.weights.get(id) ?? sections.unseen)
      for (let c = 0, at = id * columns; c < columns; c++) vector[c] += values[at + c] * weight
    }
    let norm = 0
    for (let c = 0; c < columns; c++) norm += (vector[c] *= scales[c]) ** 2
    return vector.map(value => value / (Math.sqrt(norm) || 1))
  }
  // Every section's location, best first: the best of its rows' similarities to the query.
  function rank(query) {
    const q = embed(query), best = new Map(), { locations, vectors } = sections
    for (let row = 0; row < locations.length; row++) {
      let dot = 0
      for (let c = 0, at = row * columns; c < columns; c++) dot += q[c] * vectors[at + c]
      if (!(best.get(locations[row]) >= dot)) best.set(locations[row], dot)
    }
    return [...best.keys()].sort((a, b) => best.get(b) - best.get(a))
  }
  return { rank, embed }
}

self.jitdocsMeaning = { tokenizer, load }
