// Package aamp reads and writes AAMP version 2 parameter archives (binary resource
// parameter archives of Breath of the Wild and Tears of the Kingdom: .bxml, .baiprog,
// .bmodellist, .bas, .baslist, ...) and converts them to and from YAML and JSON.
//
// A document is a ParameterIO: a root ParameterList (named param_root) of child lists and
// ParameterObjects, whose Parameters carry one typed value each. Names are CRC32 hashes in
// the file; a Namer turns them into strings where a name is known: names in the built-in
// list (names.txt, compiled by `go generate` from the corpus with gennames, keeping only
// names whose hash occurs there), strings found in the document itself, names a text form
// spelled out, and numbered forms of the parent's name (Parent_03, Child3, ...).
//
// Binary layout (little endian, offsets in 4-byte words relative to the record that holds
// them): a 0x30-byte header, the type string, list records (12 bytes), object records
// (8 bytes), parameter records (8 bytes: name, 24-bit data offset, type byte), the data
// section (buffers store a u32 count before their elements; identical data is stored once)
// and the string section (all four string types; identical strings stored once).
//
// Two writers: Read records where every structure and value sat (offsets only, never the
// input bytes) and Bytes reuses that layout while the model still fits it, so an unedited
// file comes back byte-identical; BytesCanonical (and Bytes for new or restructured
// documents) lays the file out the way Nintendo's and oead's writers do. Every Nintendo
// file of the shared corpus is also reproduced exactly by the canonical writer.
//
// YAML follows oead/roead: a !io mapping with version, type and param_root; !list mappings
// with objects and lists; !obj mappings of parameters; tags !vec2 !vec3 !vec4 !color !quat
// !curve !buffer_int !buffer_f32 !buffer_u32 !buffer_binary !str32 !str64 !str256 !u; plain
// bools, floats (shortest form that reads back to the same float32, always with a '.';
// .nan/.inf/-.inf), ints and strings (string_ref); u32 values are written as hex (!u 0x10),
// buffers and curve headers in decimal. Unknown name hashes are integer keys; a name that
// looks like a number is quoted. NaN payloads are not kept by the text forms.
//
// JSON (for the editor) is described at ToJSON.
//
// The package must never panic, hang or allocate far beyond the input size on hostile
// input: every count and offset is checked against the header and the file before use,
// child blocks must lie after their parent (no cycles) and decoded values share a budget
// proportional to the input size. It never returns the input buffer as output.
package aamp
