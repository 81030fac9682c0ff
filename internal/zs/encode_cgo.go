//go:build cgo

package zs

import (
	"sync"

	ddzstd "github.com/DataDog/zstd"
)

// With cgo, files are compressed by the reference implementation, libzstd, built from the
// sources github.com/DataDog/zstd carries (no system library needed). At the same output
// size it takes about half the CPU of klauspost's encoder with a dictionary, whose match
// finder is the Go library's slowest path: Enemy_Ganondorf.pack.zs's 2 MB archive is 534 KB
// in 10-14 ms at level 3, where klauspost took 29-34 ms for 536 KB. Decoding stays with
// klauspost's decoder, behind this package's own bounds (see Decompress).

// Encoder names what compresses in this build: the reference implementation.
const Encoder = "libzstd"

// libraryLevel is libzstd's level of a Level: 3 (its default) for Fast; 19, the highest
// level whose window stays within MaxWindow, for Smallest (Enemy_Ganondorf: 436 KB in 0.8 s,
// 14 % under Nintendo's 507 KB).
func libraryLevel(level Level) int {
	if level == Smallest {
		return 19
	}
	return 3
}

// An encoderPool is one dictionary and level digested once (a CDict, which libzstd reads
// concurrently), and scratch buffers of the output's bound, so each save allocates only its
// exact output.
type encoderPool struct {
	level   int
	bulk    *ddzstd.BulkProcessor // nil without a dictionary
	scratch sync.Pool             // *[]byte
}

func newEncoderPool(dict []byte, level Level) (*encoderPool, error) {
	p := &encoderPool{level: libraryLevel(level)}
	if dict != nil {
		b, err := ddzstd.NewBulkProcessor(dict, p.level)
		if err != nil {
			return nil, err
		}
		p.bulk = b
	}
	return p, nil
}

func (p *encoderPool) compress(data []byte) ([]byte, error) {
	buf, _ := p.scratch.Get().(*[]byte)
	if buf == nil {
		buf = new([]byte)
	}
	defer func() {
		if cap(*buf) <= maxScratch {
			p.scratch.Put(buf)
		}
	}()
	if bound := ddzstd.CompressBound(len(data)); cap(*buf) < bound {
		*buf = make([]byte, bound)
	}
	var out []byte
	var err error
	if p.bulk != nil {
		out, err = p.bulk.Compress(*buf, data)
	} else {
		out, err = ddzstd.CompressLevel(*buf, data, p.level)
	}
	if err != nil {
		return nil, err
	}
	return append(make([]byte, 0, len(out)), out...), nil
}

func (p *encoderPool) close() {}

// maxScratch is the largest scratch buffer kept for the next save: a rare huge file's is
// left to the collector.
const maxScratch = 32 << 20
