//go:build !cgo

package zs

import (
	"runtime"
	"sync"

	"github.com/klauspost/compress/zstd"
)

// Without cgo (no C compiler, or CGO_ENABLED=0) files are compressed by klauspost's
// encoder: the same frames, about twice the CPU of the reference implementation for the
// same size (see encode_cgo.go).

// Encoder names what compresses in this build: klauspost's Go encoder.
const Encoder = "klauspost"

// libraryLevel is the encoder level of a Level: SpeedBetterCompression for Fast,
// SpeedBestCompression for Smallest.
func libraryLevel(level Level) zstd.EncoderLevel {
	if level == Smallest {
		return zstd.SpeedBestCompression
	}
	return zstd.SpeedBetterCompression
}

// An encoderPool holds up to max encoders of one dictionary and level. Each prepares the
// dictionary's match tables on its first use and keeps them, so a save only restores them;
// saves of several requests at once each get one rather than queueing for a single one.
// The encoder returned last is handed out first: with one save at a time the same encoder,
// its tables warm in the cache, does every save (handed out in turn, as the library's own
// pool does, each save met tables gone cold, and saves were measurably slower).
type encoderPool struct {
	opts  []zstd.EOption
	max   int
	mu    sync.Mutex
	ready *sync.Cond // signalled when an encoder is put back
	free  []*zstd.Encoder
	made  int
}

func newEncoderPool(dict []byte, level Level) (*encoderPool, error) {
	opts := []zstd.EOption{
		zstd.WithEncoderCRC(false),
		zstd.WithEncoderConcurrency(1),
		zstd.WithEncoderLevel(libraryLevel(level)),
	}
	if dict != nil {
		opts = append(opts, zstd.WithEncoderDict(dict))
	}
	p := &encoderPool{opts: opts, max: poolSize(level)}
	p.ready = sync.NewCond(&p.mu)
	return p, nil
}

func (p *encoderPool) compress(data []byte) ([]byte, error) {
	enc, err := p.get()
	if err != nil {
		return nil, err
	}
	defer p.put(enc)
	return enc.EncodeAll(data, make([]byte, 0, len(data)/2+64)), nil
}

func (p *encoderPool) get() (*zstd.Encoder, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.free) == 0 && p.made >= p.max {
		p.ready.Wait()
	}
	if n := len(p.free); n > 0 {
		e := p.free[n-1]
		p.free = p.free[:n-1]
		return e, nil
	}
	e, err := zstd.NewWriter(nil, p.opts...)
	if err != nil {
		return nil, err
	}
	p.made++
	return e, nil
}

func (p *encoderPool) put(e *zstd.Encoder) {
	p.mu.Lock()
	p.free = append(p.free, e)
	p.mu.Unlock()
	p.ready.Signal()
}

// close releases the encoders not in use.
func (p *encoderPool) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, e := range p.free {
		e.Close()
	}
	p.free = nil
}

// poolSize is how many encoders a pool keeps: as many as there are processors for Fast,
// which the server saves with, at most 4 (each holds about 10 MB of tables, made when it is
// first needed); one for Smallest, whose encoder holds 70 MB and which only the command line
// uses.
func poolSize(level Level) int {
	if level == Smallest {
		return 1
	}
	return min(runtime.GOMAXPROCS(0), 4)
}
