// Package ainb reads and writes AINB ("AI Node Binary") files, the behavior-tree graphs of
// Nintendo's ModuleSystem games, in versions 0x404, 0x407 and 0x408.
//
// A File is the typed model of a whole binary: commands, elements with their properties,
// input and output plugs, child, jump and selector plugs, attachments, the blackboard, the
// expression binary (package exb), modules, XLink actions, the child replacement table and the
// smaller sections. Read parses a binary into a File; (*File).Bytes lays a binary out from the
// model. Unedited files come back byte-identical because the model records what the layout
// depends on (the string pool order, for one), never because the input bytes are kept. The
// model's Reserved fields and the plug kinds no known file uses (Element.UnusedPlugs) are
// read as they are and written back; what follows from the model (counts, name hashes,
// offsets) is recomputed. Every record's size and field offsets are declared once, in
// layout.go, for the reader and the writer alike.
//
// The package also converts a File to and from the JSON format of the public Python library
// `ainb` (compat.go), the format most community tools exchange.
//
// The reader must never panic, hang or allocate more than the input justifies, whatever bytes
// it is given; every error names the section and the offset. The writer must never produce a
// file its own reader rejects: Validate runs before every write.
package ainb
