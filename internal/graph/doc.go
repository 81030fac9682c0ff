// Package graph is the editor's document: a whole AINB file as the browser edits it, as a
// graph of nodes with typed plugs, a position for every node, and the automatic layout that
// places nodes nobody has placed.
//
// The document (types.go, described exactly by document.schema.json) says what a file means
// and nothing the binary derives: no flag words, numeric types, mirror plugs, string pool or
// offsets. Nodes are referred to by id. Parse (FromFile) turns a binary into a document; Build
// (ToFile) derives everything else again. What a file stored that the canonical derivation
// would not give (an unusual string pool order, unknown bits, mirror plugs the reference
// writer filled with arbitrary data) travels in the opaque Layout field as facts, each about
// one node or attachment and applied only while that node's content is unchanged, so an
// unedited document builds the very bytes it was parsed from and an edited node becomes
// canonical.
//
// Encode and Decode are the document's JSON, written and read by hand in one pass. Decode and
// ToFile report every problem with its path in the document's terms
// ("nodes[12].inputs[3].source.node: no node with id 4000"); a document that passes them
// builds a file that ainb.Read accepts.
//
// The package must never keep per-user state or touch the network or the filesystem: the
// server converts documents on request and forgets them.
package graph
