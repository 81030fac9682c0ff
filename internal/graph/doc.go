// Package graph is the editor's document: a whole AINB file as the browser edits it, with a
// position for every node, and the automatic layout that places nodes nobody has placed.
//
// The document carries the AINB model itself (package ainb, in the project's own JSON), so
// converting a file to a document and back is lossless by construction: an unedited document
// builds the very bytes it was parsed from. Expression functions travel beside it as editable
// disassembly text.
//
// The package must never keep per-user state or touch the network or the filesystem: the
// server converts documents on request and forgets them.
package graph
