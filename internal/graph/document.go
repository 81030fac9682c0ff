package graph

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"ainbeditor/internal/ainb"
)

// Format names the document format and its version.
const Format = "ainb-editor-document/1"

// Document is what the editor loads, edits and saves.
type Document struct {
	Format string `json:"format"`
	// Name is the name of the uploaded file, used for downloads.
	Name string `json:"name"`
	// File is the AINB model in the project's own JSON.
	File *ainb.File `json:"file"`
	// Positions holds one entry per element, in element order.
	Positions []Position `json:"positions"`
	// Functions is the expression binary's functions as editable text; nil when the file has
	// none. On build, a function whose text differs from the model's is assembled again.
	Functions []Function `json:"functions,omitempty"`
}

// Position is where a node sits on the canvas: its top-left corner, in canvas units.
type Position struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
	// W and H are the size of the node's box, from NodeWidth and NodeHeight.
	W float64 `json:"w"`
	H float64 `json:"h"`
	// Pinned marks a position the user chose; automatic layout leaves it alone.
	Pinned bool `json:"pinned,omitempty"`
}

// Function is one expression function.
type Function struct {
	Text string `json:"text"`
}

// FromFile makes a document for a model, with every node laid out automatically.
func FromFile(name string, f *ainb.File) (*Document, error) {
	d := &Document{Format: Format, Name: name, File: f}
	if f.Expressions != nil {
		for i := range f.Expressions.Functions {
			text, err := f.Expressions.FunctionText(i)
			if err != nil {
				return nil, fmt.Errorf("expression %d: %w", i, err)
			}
			d.Functions = append(d.Functions, Function{Text: text})
		}
	}
	Layout(d)
	return d, nil
}

// Parse reads an AINB binary into a document.
func Parse(name string, data []byte) (*Document, error) {
	f, err := ainb.Read(data)
	if err != nil {
		return nil, err
	}
	return FromFile(name, f)
}

// Decode reads a document from JSON, checking its shape.
func Decode(data []byte) (*Document, error) {
	var d Document
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&d); err != nil {
		return nil, fmt.Errorf("document: %w", err)
	}
	if d.Format != Format {
		return nil, fmt.Errorf("document: format %q, want %q", d.Format, Format)
	}
	if d.File == nil {
		return nil, errors.New("document: no file")
	}
	if len(d.Positions) != 0 && len(d.Positions) != len(d.File.Elements) {
		return nil, fmt.Errorf("document: %d positions for %d nodes", len(d.Positions), len(d.File.Elements))
	}
	return &d, nil
}

// FunctionError reports expression text that does not assemble.
type FunctionError struct {
	Function int
	Err      error
}

func (e *FunctionError) Error() string { return fmt.Sprintf("expression %d: %v", e.Function, e.Err) }
func (e *FunctionError) Unwrap() error { return e.Err }

// ToFile applies the document's function texts to its model and returns the model.
func (d *Document) ToFile() (*ainb.File, error) {
	f := d.File
	if f.Expressions == nil {
		if len(d.Functions) > 0 {
			return nil, errors.New("document: expression functions but no expression binary")
		}
		return f, nil
	}
	if d.Functions == nil {
		return f, nil
	}
	if len(d.Functions) != len(f.Expressions.Functions) {
		return nil, fmt.Errorf("document: %d expression texts for %d functions", len(d.Functions), len(f.Expressions.Functions))
	}
	for i, fn := range d.Functions {
		old, err := f.Expressions.FunctionText(i)
		if err != nil {
			return nil, &FunctionError{i, err}
		}
		if old == fn.Text {
			continue
		}
		if err := f.Expressions.SetFunctionText(i, fn.Text); err != nil {
			return nil, &FunctionError{i, err}
		}
	}
	return f, nil
}

// Build turns a document into an AINB binary.
func (d *Document) Build() ([]byte, error) {
	f, err := d.ToFile()
	if err != nil {
		return nil, err
	}
	return f.Bytes()
}
