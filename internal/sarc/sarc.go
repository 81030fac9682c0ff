// Package sarc reads and writes SARC archives, the flat file containers of Nintendo's sead
// library (.pack, .sarc, .bfarc, ... and, compressed, .szs and .pack.zs).
//
// A SARC file is a 0x14-byte header ("SARC", byte order mark, file size, data offset,
// version 0x0100), the SFAT (file allocation table: one entry per file with the name hash,
// the name's place in the name table and the data range, sorted by hash because the game
// binary-searches it), the SFNT (file names, NUL-terminated, each padded to 4 bytes), then
// the file data, each file aligned as its type requires.
//
// Open gives a View: a read-only look that checks only the headers up front and each entry
// when it is read, allocating nothing, for callers that take a few files out of an archive.
// Read turns the bytes into an Archive and records the layout facts the bytes show: each
// file's hash, its alignment (or, where no alignment explains it, its exact padding) and the
// data section's alignment. Bytes lays the archive out from the model alone: an unedited
// archive written by Nintendo's tools comes back byte for byte, an edited one keeps the
// recorded facts for the files it did not touch and places new or changed files the way the
// public tools (oead's SarcWriter, zeldamods/sarc) do. Files' Data may alias Read's input.
//
// The writer always produces the layout Nintendo's tools produce: SFAT sorted by hash, names
// in SFAT order, data in SFAT order, zero padding. An archive laid out otherwise (none is
// known) reads fine but is written in that canonical layout instead of byte for byte.
// Nested SARCs do not get oead's "legacy mode" 0x2000 alignment: the games this project
// edits use the newer resource system, which oead writes without it.
//
// Modding tools write some archives wrong in ways the game does not mind: 37 TotK packs of
// the game files store a header file size 4 less than their length, and end with 5 zero
// bytes after the last file's data. Read accepts a file size up to the input's length and
// any bytes after the data, records both, and Warnings reports them; Bytes reproduces them
// while the archive is unedited and writes the true size and no stray bytes once it is
// edited. Only a file size past the input (bytes missing) is refused.
//
// The reader must never panic or allocate beyond the input whatever the bytes: counts are
// checked against the remaining bytes before anything is allocated, and every error names the
// structure and offset. The writer must never produce an archive its reader rejects.
package sarc

import (
	"fmt"
	"slices"
)

// Archive is a SARC archive.
type Archive struct {
	// BigEndian selects the byte order (byte order mark FE FF); Wii U archives are big
	// endian, Switch archives little endian.
	BigEndian bool
	// HashMultiplier is the SFAT name hash multiplier, 0x65 in every known archive.
	HashMultiplier uint32
	// MinAlignment is the smallest data alignment given to files placed anew. Read guesses
	// it from the data offsets (see recordLayout: the largest power of two dividing them
	// all, at least 4 as in oead, at most the data section's alignment). Zero means 4.
	MinAlignment uint32
	// Files in SFAT order. Bytes sorts them by name hash (stably) since the game
	// binary-searches the table; Add and Rename keep the order sorted already.
	Files []File

	layout *archiveLayout // nil for archives not made by Read
}

// File is one archived file.
type File struct {
	Name string
	// Data is the file's content. After Read it aliases the input buffer.
	Data []byte

	placed *placement // what Read saw, nil for files added since
}

// archiveLayout holds the archive-wide facts Read recorded.
type archiveLayout struct {
	dataAlign    uint32 // the data offset is the name table's end aligned to this
	reserved     uint16 // header bytes 0x12..0x13
	sfntReserved uint16 // SFNT header bytes 6..7

	// What a modding tool left wrong, kept while the archive is unedited (see unedited):
	// the header's file size as that many bytes less than the archive's length, and bytes
	// after the last file's data (aliasing Read's input, like the files' Data).
	files     int    // the SFAT count read, to tell an unedited archive
	sizeShort uint32 // archive length minus the header's file size
	tail      []byte
	tailAt    uint32 // where the tail starts, for warnings

	// The first SFAT entry whose hash is below the one before (0: none), which the game's
	// binary search may miss; Bytes writes the table sorted.
	unsortedAt                 int
	unsortedHash, unsortedPrev uint32 // its hash, the one before
}

// placement holds one file's facts as Read saw them. They apply while the file keeps the
// name and the very Data slice (same start, same length) it was read with; any other change
// of either makes the file new to the writer.
type placement struct {
	name  string
	data  []byte
	hash  uint32
	attr  uint32 // raw SFAT name attribute: collision index << 24 | name offset / 4
	begin uint32 // data offset from the data section's start
	align uint32 // data begins at the previous file's end aligned to this...
	pad   uint32 // ...or, when pad != 0, exactly pad bytes after it
}

// kept reports whether f still has what Read recorded.
func (f *File) kept() bool {
	p := f.placed
	if p == nil || f.Name != p.name || len(f.Data) != len(p.data) {
		return false
	}
	if len(f.Data) == 0 {
		return true
	}
	return &f.Data[0] == &p.data[0]
}

// Hash returns the SFAT hash of name under the archive's multiplier.
func (a *Archive) Hash(name string) uint32 {
	return hashName(a.multiplier(), name)
}

func (a *Archive) multiplier() uint32 {
	if a.HashMultiplier == 0 {
		return 0x65
	}
	return a.HashMultiplier
}

// Index returns the position of the named file in Files, or -1.
func (a *Archive) Index(name string) int {
	return slices.IndexFunc(a.Files, func(f File) bool { return f.Name == name })
}

// Lookup returns the named file's data.
func (a *Archive) Lookup(name string) ([]byte, bool) {
	i := a.Index(name)
	if i < 0 {
		return nil, false
	}
	return a.Files[i].Data, true
}

// Add inserts a new file at its place in hash order. The archive keeps data (no copy).
func (a *Archive) Add(name string, data []byte) error {
	if name == "" {
		return fmt.Errorf("sarc: add: empty file name")
	}
	if a.Index(name) >= 0 {
		return fmt.Errorf("sarc: add %q: a file with that name exists", name)
	}
	a.insert(File{Name: name, Data: data})
	return nil
}

func (a *Archive) insert(f File) {
	h := a.Hash(f.Name)
	i := len(a.Files)
	for i > 0 && a.fileHash(&a.Files[i-1]) > h {
		i--
	}
	a.Files = slices.Insert(a.Files, i, f)
}

// Replace sets the named file's data. The archive keeps data (no copy).
func (a *Archive) Replace(name string, data []byte) error {
	i := a.Index(name)
	if i < 0 {
		return fmt.Errorf("sarc: replace %q: no such file", name)
	}
	a.Files[i].Data = data // a new slice: the writer places it anew, keeping the hash
	return nil
}

// Remove deletes the named file.
func (a *Archive) Remove(name string) error {
	i := a.Index(name)
	if i < 0 {
		return fmt.Errorf("sarc: remove %q: no such file", name)
	}
	a.Files = slices.Delete(a.Files, i, i+1)
	return nil
}

// Rename changes a file's name and moves it to its new place in hash order.
func (a *Archive) Rename(oldName, newName string) error {
	i := a.Index(oldName)
	if i < 0 {
		return fmt.Errorf("sarc: rename %q: no such file", oldName)
	}
	if newName == "" {
		return fmt.Errorf("sarc: rename %q: empty file name", oldName)
	}
	if oldName == newName {
		return nil
	}
	if a.Index(newName) >= 0 {
		return fmt.Errorf("sarc: rename %q to %q: a file with that name exists", oldName, newName)
	}
	f := a.Files[i]
	a.Files = slices.Delete(a.Files, i, i+1)
	f.Name = newName
	f.placed = nil
	a.insert(f)
	return nil
}

// fileHash is the hash Bytes stores for f: the recorded one while the name is unchanged
// (it keeps unnamed entries and any non-ASCII hashing convention), else computed.
func (a *Archive) fileHash(f *File) uint32 {
	if f.placed != nil && f.placed.name == f.Name {
		return f.placed.hash
	}
	return a.Hash(f.Name)
}

// A Warning is something Read accepted although it breaks a rule of the format: modding
// tools write such archives, and the game and the other tools load them.
type Warning struct {
	Offset int64 // where in the archive
	Text   string
}

func (w Warning) String() string { return fmt.Sprintf("sarc: at 0x%x: %s", w.Offset, w.Text) }

// Warnings lists what looks wrong in the archive as read, and what Bytes does about it. A
// file table out of hash order is always written sorted. A wrong file size and bytes after
// the data are kept while the archive is unedited (the files Read found, each with its name
// and data), so the archive comes back byte for byte; once a file is added, removed, renamed
// or replaced Bytes corrects them (and so for an archive whose layout Bytes does not
// reproduce). Nil for an archive that breaks no rule, or was not made by Read.
func (a *Archive) Warnings() []Warning {
	l := a.layout
	if l == nil {
		return nil
	}
	kept := false
	// Planning a save costs a few times the archive: only a quirk to report needs it.
	if l.sizeShort != 0 || len(l.tail) != 0 {
		if p, err := a.plan(); err == nil {
			kept = a.keepsQuirks(p)
		}
	}
	var ws []Warning
	if i := l.unsortedAt; i != 0 {
		ws = append(ws, Warning{Offset: int64(entries + i*sfatEntrySize), Text: fmt.Sprintf(
			"SFAT entry %d has name hash 0x%08x, below entry %d's 0x%08x: the game binary-searches the table by hash and may not find some files; written sorted by hash",
			i, l.unsortedHash, i-1, l.unsortedPrev)})
	}
	length := uint64(l.tailAt) + uint64(len(l.tail))
	if l.sizeShort != 0 {
		w := Warning{Offset: 8, Text: fmt.Sprintf("file size %d, but the archive is %d bytes (%d more; a modding tool's mistake, the game loads it)",
			length-uint64(l.sizeShort), length, l.sizeShort)}
		if kept {
			w.Text += "; written back as it is while the archive is unedited"
		} else {
			w.Text += "; the edited archive is written with its true size"
		}
		ws = append(ws, w)
	}
	if len(l.tail) != 0 {
		what := "zero bytes"
		if slices.ContainsFunc(l.tail, func(b byte) bool { return b != 0 }) {
			what = "bytes, not all zero,"
		}
		w := Warning{Offset: int64(l.tailAt), Text: fmt.Sprintf("%d %s after the last file's data, part of no file", len(l.tail), what)}
		if kept {
			w.Text += "; written back as they are while the archive is unedited"
		} else {
			w.Text += "; left out of the edited archive"
		}
		ws = append(ws, w)
	}
	return ws
}
