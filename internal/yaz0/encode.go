package yaz0

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
)

// Matcher tuning. Nintendo's own encoder (judged from the corpus) takes the nearest of the
// longest matches and defers a match by one byte when the next position matches longer; it
// does not search exhaustively. This encoder does the same, so its output is within 0.15% of
// Nintendo's size on the corpus, and its chunk choices differ from Nintendo's in 11 to 278
// places per file (of 3,700 to 2.7 million chunks): Nintendo's window edge and lazy rule
// could not be pinned down, so the output is never byte-identical. The chain limit keeps runs of equal bytes from
// turning the search quadratic; 4096 would search the whole window.
const (
	hashBits   = 15
	hashSize   = 1 << hashBits
	chainLimit = 512
	niceLength = MaxMatch // stop searching once a match this long is found
)

// The search is bounded by a work budget, counted in candidates visited (weighted, since
// each is a jump through the chains that usually misses the cache) plus bytes compared.
// Game files cost 3 to 45 units a byte (the corpus and gamefiles), so within the budget the
// output is what the full search gives; crafted data (a random two-letter alphabet) costs
// 260 a byte, 2 µs a byte, which made an 11.8 MB pack decompressing to 64 MiB take 90 s of
// CPU per save. Past the budget the rest of the input is searched the cheap way: a short
// chain and no deferred matches, a few candidates a byte, still a valid stream. The budget
// grows with the input up to a cap, so compression effort is chosen by size: above
// fullSearchBytes a file is searched in full only as far as the cap goes.
const (
	candidateCost   = 4
	workPerByte     = 96
	workBase        = 4 << 20
	fullSearchBytes = 6 << 20
	fastChainLimit  = 8
	// checkEvery is how many input bytes pass between looks at the context: a few
	// milliseconds of work at worst.
	checkEvery = 64 << 10
)

// workBudget is the search work src's size buys before the cheap search takes over.
func workBudget(n int) int64 {
	return workBase + workPerByte*int64(min(n, fullSearchBytes))
}

// Compress compresses src into a Yaz0 file whose header carries alignment. It fails only when
// src is longer than the header's 32-bit size field can say.
func Compress(src []byte, alignment uint32) ([]byte, error) {
	return CompressContext(context.Background(), src, alignment)
}

// CompressContext is Compress that stops, returning ctx's error, once ctx is done.
func CompressContext(ctx context.Context, src []byte, alignment uint32) ([]byte, error) {
	dst, _, err := encode(ctx, src, alignment)
	return dst, err
}

// encodeStats is what an encoding cost, for tests.
type encodeStats struct {
	work     int64 // search work done (see candidateCost)
	fastFrom int   // where the cheap search took over; len(src) if it never did
	read     int   // input bytes encoded: len(src) unless stopped
}

func encode(ctx context.Context, src []byte, alignment uint32) ([]byte, encodeStats, error) {
	if uint64(len(src)) > math.MaxUint32 {
		return nil, encodeStats{}, fmt.Errorf("yaz0: input of %d bytes exceeds the 32-bit size field", len(src))
	}
	// Worst case: every chunk a literal, one code byte per eight.
	dst := make([]byte, HeaderSize, HeaderSize+len(src)+len(src)/8+1)
	copy(dst, "Yaz0")
	binary.BigEndian.PutUint32(dst[4:], uint32(len(src)))
	binary.BigEndian.PutUint32(dst[8:], alignment)

	e := encoder{src: src, chain: chainLimit}
	budget := workBudget(len(src))
	lazy := true
	fastFrom := len(src)
	nextCheck := checkEvery
	for i := range e.head {
		e.head[i] = -1
	}
	codeAt := -1
	var chunks uint
	emitChunk := func(literal bool) {
		if chunks == 0 {
			codeAt = len(dst)
			dst = append(dst, 0)
		}
		if literal {
			dst[codeAt] |= 0x80 >> chunks
		}
		chunks = (chunks + 1) & 7
	}

	pos := 0
	var cur match
	haveCur := false
	for pos < len(src) {
		if pos >= nextCheck {
			if err := ctx.Err(); err != nil {
				return nil, encodeStats{work: e.work, fastFrom: fastFrom, read: pos}, err
			}
			nextCheck = pos + checkEvery
		}
		if lazy && e.work > budget && !haveCur {
			e.chain, lazy, fastFrom = fastChainLimit, false, pos
		}
		if !haveCur {
			cur = e.find(pos)
			e.insert(pos)
		}
		haveCur = false
		if lazy && cur.length >= MinMatch && pos+1 < len(src) {
			next := e.find(pos + 1)
			if next.length > cur.length {
				// Deferring costs one literal and wins at least one byte of match.
				emitChunk(true)
				dst = append(dst, src[pos])
				pos++
				e.insert(pos)
				cur, haveCur = next, true
				continue
			}
		}
		if cur.length < MinMatch {
			emitChunk(true)
			dst = append(dst, src[pos])
			pos++
			continue
		}
		emitChunk(false)
		d := cur.dist - 1
		if cur.length < 18 {
			dst = append(dst, byte(cur.length-2)<<4|byte(d>>8), byte(d))
		} else {
			dst = append(dst, byte(d>>8), byte(d), byte(cur.length-18))
		}
		end := pos + cur.length
		for pos++; pos < end; pos++ {
			e.insert(pos)
		}
	}
	return dst, encodeStats{work: e.work, fastFrom: fastFrom, read: pos}, nil
}

type match struct{ length, dist int }

// encoder holds hash chains over the last MaxDistance positions: head maps a 3-byte hash to
// the newest position with it, prev links each position (modulo the window) to the previous.
type encoder struct {
	src   []byte
	chain int   // candidates a search visits at most
	work  int64 // search work so far (see candidateCost)
	head  [hashSize]int32
	prev  [MaxDistance]int32
}

func hash3(b []byte) uint32 {
	return (uint32(b[0])<<16 | uint32(b[1])<<8 | uint32(b[2])) * 2654435761 >> (32 - hashBits)
}

// insert records pos in the chains; positions with fewer than 3 bytes left cannot start a
// match and are skipped.
func (e *encoder) insert(pos int) {
	if pos+MinMatch > len(e.src) {
		return
	}
	h := hash3(e.src[pos:])
	e.prev[pos&(MaxDistance-1)] = e.head[h]
	e.head[h] = int32(pos)
}

// find returns the longest match for pos within the window, the nearest one on ties; pos
// itself must not be inserted yet.
func (e *encoder) find(pos int) match {
	src := e.src
	limit := len(src) - pos
	if limit < MinMatch {
		return match{}
	}
	if limit > MaxMatch {
		limit = MaxMatch
	}
	want := src[pos : pos+limit]
	best := match{}
	cand := int(e.head[hash3(want)])
	n := 0
	for ; cand >= 0 && pos-cand <= MaxDistance && n < e.chain; n++ {
		c := src[cand:]
		// Check the byte that would extend the best match first: most candidates fail there.
		if c[best.length] == want[best.length] || best.length == 0 {
			l := 0
			for l < limit && c[l] == want[l] {
				l++
			}
			e.work += int64(l)
			if l > best.length {
				best = match{length: l, dist: pos - cand}
				if l >= niceLength || l == limit {
					break
				}
			}
		}
		p := int(e.prev[cand&(MaxDistance-1)])
		if p >= cand {
			break // slot reused by a newer position: the chain left the window
		}
		cand = p
	}
	e.work += candidateCost * int64(n+1)
	return best
}
