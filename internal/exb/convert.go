package exb

import "errors"

// ConvertFunction gives one function's text in the other form: the instruction listing
// (FunctionText's form) of readable code, or the readable code (FunctionSource's form) of a
// listing; toListing says which. Either form is accepted as input. A function's texts
// stand alone: literals, strings and signatures are written out, never as table offsets,
// so the function is assembled into a module of its own and read back in the other form,
// which compiles to the same instructions as the given text. This is what the editor's
// toggle between the two forms uses.
//
// An error that the text does not compile is a *SyntaxError with its line and column when
// it has them (the function's index is not part of it: there is only the one).
func ConvertFunction(version uint32, text string, toListing bool) (string, error) {
	m, err := AssembleSources(version, []string{text})
	if err != nil {
		var fe *FunctionError
		if errors.As(err, &fe) {
			return "", fe.Err
		}
		return "", err
	}
	if toListing {
		return m.FunctionText(0)
	}
	return m.FunctionSource(0)
}
