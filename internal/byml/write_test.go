package byml

import (
	"bytes"
	"fmt"
	"testing"
)

// firstDiff describes where two byte slices first differ.
func firstDiff(a, b []byte) string {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return fmt.Sprintf("first difference at 0x%x (got %02x, want %02x); lengths %d and %d", i, a[i], b[i], len(a), len(b))
		}
	}
	return fmt.Sprintf("lengths %d and %d", len(a), len(b))
}

func TestCorpusPreserve(t *testing.T) {
	for _, f := range corpusFiles(t) {
		doc, err := Read(f.data)
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		if !doc.Preserved() {
			t.Errorf("%s: recorded layout does not fit the unedited tree", f.name)
			continue
		}
		out, err := doc.Marshal()
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		if !bytes.Equal(out, f.data) {
			t.Errorf("%s: preserve write differs: %s", f.name, firstDiff(out, f.data))
		}
	}
}

func TestCorpusCanonical(t *testing.T) {
	for _, f := range corpusFiles(t) {
		doc, err := Read(f.data)
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		out, err := doc.MarshalCanonical()
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		back, err := Read(out)
		if err != nil {
			t.Fatalf("%s: canonical output does not read back: %v", f.name, err)
		}
		if !Equal(back.Root, doc.Root) || back.Version != doc.Version || back.BigEndian != doc.BigEndian {
			t.Errorf("%s: canonical output reads back different", f.name)
		}
		same := bytes.Equal(out, f.data)
		reason, exception := canonicalExceptions[f.name]
		switch {
		case !same && !exception:
			t.Errorf("%s: canonical layout differs from the file: %s", f.name, firstDiff(out, f.data))
		case same && exception:
			t.Errorf("%s: listed as a canonical exception (%s) but the canonical layout reproduces it", f.name, reason)
		case exception:
			t.Logf("%s: canonical layout differs as expected (%s): %s", f.name, reason, firstDiff(out, f.data))
		}
	}
}

// canonicalExceptions are the corpus files whose bytes the canonical layout does not
// reproduce, and why. Every other file, including all but three of Tears of the Kingdom's
// own files, comes out of MarshalCanonical byte for byte.
var canonicalExceptions = map[string]string{
	"A-1_Dynamic.byml":                           botwOrder,
	"ActorInfo.product.byml":                     botwOrder,
	"ActorInfo.product.sbyml":                    botwOrder,
	"EventInfo.product.byml":                     botwOrder,
	"LevelSensor.byml":                           botwOrder,
	"MainFieldStatic.byml":                       botwOrder,
	"USen.byml":                                  "shares most equal containers but not all of them",
	"totk/Tag.Product.120.rstbl.byml.zs":         rstbOrder,
	"totk-resaved/Tag.Product.120.rstbl.byml.zs": rstbOrder,
	"totk/Accessory_Battery+Component+Blackboard+BlackboardParamTable+Accessory.engine__component__BlackboardParamTable.bgyml": noSharing,
	"totk/Armor_006_Upper+Phive+ClothReaction+Belt.phive__ClothReaction.bgyml":                                                 noSharing,
	"totk-resaved/Armor_006_Upper.pack.zs:1":                                                                                   noSharing,
	"totk-resaved/A-4_Static.bcett.byml.zs":                                                                                    "third-party writer: big values after their container, containers shared",
}

const (
	botwOrder = "Breath of the Wild's writer orders a container's child containers by something the tree does not hold (not key order)"
	rstbOrder = "the resource-size-table tool writes big values right after their container"
	noSharing = "this writer did not share equal containers"
)
