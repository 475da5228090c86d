// Runs the built site's own search worker (the script its pages start, named in their __config,
// with its query string) under Node, with the few globals a Web Worker has, and answers queries
// as the search box does: Material's (MkDocs' build) or Zensical's, which the site's index file
// tells apart (search/search_index.json or search.json).
// Usage: node run_worker.js <site folder>  (queries as a JSON list on stdin; a JSON list of
// results on stdout: for each query, the worker's result groups, one per page, best first).
"use strict"
const fs = require("fs")
const path = require("path")
const vm = require("vm")

const SETUP = 0, READY = 1, QUERY = 2, RESULT = 3  // Material's SearchMessageType; Zensical's alike

function workerPath(site) {
  const html = fs.readFileSync(path.join(site, "index.html"), "utf8")
  const config = html.match(/<script id="__config" type="application\/json">(.*?)<\/script>/s)
  if (!config) throw new Error(`${site}/index.html: no __config script`)
  const [file, query = ""] = JSON.parse(config[1]).search.split("?")
  return { file: path.join(site, file), search: query ? `?${query}` : "" }
}

function startWorker({ file, search }) {
  const listeners = []
  const replies = []
  const scope = {
    console, setTimeout, clearTimeout, URL, URLSearchParams, TextEncoder, TextDecoder,
    location: { search },
    addEventListener: (type, fn) => { if (type === "message") listeners.push(fn) },
    postMessage: message => replies.push(message),
    importScripts: (...urls) => {
      for (const url of urls) vm.runInContext(fs.readFileSync(path.resolve(path.dirname(file), url), "utf8"), scope)
    },
  }
  scope.self = scope
  vm.createContext(scope)
  vm.runInContext(fs.readFileSync(file, "utf8"), scope, { filename: file })
  async function send(message) {
    const before = replies.length
    for (const fn of [...listeners, scope.onmessage]) if (fn) await fn({ data: message })
    while (replies.length === before) await new Promise(resolve => setImmediate(resolve))
    return replies[replies.length - 1]
  }
  return send
}

// Zensical's worker lists sections, best first, ten to a page of results (the box shows ten, then
// more as the reader scrolls): here the first ten, in groups of one page each, in the order each
// page first appears, so that the suite reads them as it reads Material's groups. It scores
// nothing: listed is found.
async function zensical(send, index, queries) {
  const ready = await send({ type: SETUP, data: index })
  if (ready.type !== READY) throw new Error(`the worker answered setup with ${JSON.stringify(ready)}`)
  const answers = []
  for (const input of queries) {
    const reply = await send({ type: QUERY, data: { input } })  // the box sends its words so
    if (reply.type !== RESULT) throw new Error(`the worker answered ${input} with type ${reply.type}`)
    const groups = new Map()
    for (const { id } of reply.data.items) {
      const { location, title } = index.items[id]
      const page = location.split("#")[0]
      if (!groups.has(page)) groups.set(page, [])
      groups.get(page).push({ location, title, score: 1 })
    }
    answers.push([...groups.values()])
  }
  return answers
}

async function main() {
  const site = process.argv[2]
  const queries = JSON.parse(fs.readFileSync(0, "utf8"))
  const send = startWorker(workerPath(site))
  const ownIndex = path.join(site, "search.json")  // Zensical's
  if (fs.existsSync(ownIndex)) {
    const index = JSON.parse(fs.readFileSync(ownIndex, "utf8"))
    process.stdout.write(JSON.stringify(await zensical(send, index, queries)))
    return
  }
  const index = JSON.parse(fs.readFileSync(path.join(site, "search", "search_index.json"), "utf8"))
  // As the page's script sends it (Material's setupSearchWorker): the index, and its options.
  const options = { suggest: false }  // mkdocs.yml does not turn on search.suggest
  const ready = await send({ type: SETUP, data: { config: index.config, docs: index.docs, options } })
  if (ready.type !== READY) throw new Error(`the worker answered setup with ${JSON.stringify(ready)}`)
  const answers = []
  for (const query of queries) {
    const reply = await send({ type: QUERY, data: query })
    if (reply.type !== RESULT) throw new Error(`the worker answered ${query} with type ${reply.type}`)
    answers.push(reply.data.items.map(group => group.map(({ location, title, score }) =>
      ({ location, title, score }))))
  }
  process.stdout.write(JSON.stringify(answers))
}

main().catch(error => { console.error(error); process.exit(1) })
