package ainb

import (
	"encoding/json"
	"fmt"

	"ainbeditor/internal/exb"
)

// The functions here are the only places the AINB codec looks inside the expression binary.

func expressionCount(m *exb.Module) int { return len(m.Functions) }

// expressionIOSizes lists, per expression, the bytes of input/output memory an instance of it
// needs; elements and attachments store the sum over the expressions they use.
func expressionIOSizes(m *exb.Module) []int {
	if m == nil {
		return nil
	}
	out := make([]int, len(m.Functions))
	for i := range out {
		if u, err := m.Usage(i); err == nil {
			out[i] = int(u.IO)
		}
	}
	return out
}

// appendExpressions appends the expression binary with its instance count (the number of
// expression uses in the file) set; on error dst comes back unchanged.
func appendExpressions(dst []byte, m *exb.Module, instances int) ([]byte, error) {
	c := *m
	c.Header.InstanceCount = uint32(instances)
	return c.AppendBinary(dst)
}

func expressionsCompat(m *exb.Module) (any, error) { return m.Compat() }

// expressionsFromCompat assembles the decoded "Expressions" value of the community JSON.
func expressionsFromCompat(v any) (*exb.Module, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var c exb.Compat
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, fmt.Errorf("not the expression form of the community JSON: %w", err)
	}
	return exb.FromCompat(&c)
}
