// Package diff compares and merges AINB files as editor documents (internal/graph): Diff
// lists what changed from one document to another, Merge combines two edited versions of one
// base document, and both speak internal/change's vocabulary, with the node each change
// belongs to, so the browser can colour the nodes and set a place back to either side.
//
// Nodes are matched, not compared by id or position: by GUID where a node has one no other
// node of its file shares, otherwise by its place in the tree and its class (match.go). Every
// reference (sources, children, jumps, queries, commands, blackboard parameters) is compared
// through the matchings, so renumbering and moving nodes is no change; where a node is drawn
// and the opaque layout facts never are.
//
// The package must never read or write files, or choose silently: a place both sides changed
// differently is a conflict unless the caller asked for one side to win.
package diff
