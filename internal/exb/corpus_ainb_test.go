package exb_test

import (
	"ainbeditor/internal/ainb"
	"ainbeditor/internal/exb"
)

func init() { exb.AINBExpressions = ainb.ExpressionSection }
