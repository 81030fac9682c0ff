package server

import (
	"container/list"
	"context"
	"encoding/json"
	"errors"
	"image"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus"

	"ainbeditor/internal/preview"
	"ainbeditor/internal/share"
)

// A share's preview is its picture (GET /s/{id}/preview.png) and its description (the
// share page's title and OpenGraph tags). Shares never change, so both are made once, from
// one read of the share, and kept in a cache bounded by bytes; the picture is cacheable for
// good, and its ETag needs no look-up.

// previewVersion names the drawing: a change to what the picture looks like changes it, so
// browsers and link-preview caches holding an older picture fetch the new one.
const previewVersion = "p1"

// previewTimeout bounds making one preview: reading the share, decoding it, drawing. Made
// once for every request waiting on it, so not tied to any one of them.
const previewTimeout = 30 * time.Second

// previewHeldFactor is how many times a share's size making its preview holds at most: the
// share as read, its document copied out, and the decoded document, besides the picture
// (measured on the corpus's largest file: a share of 1.6 MB, 16.4 MB allocated in all, 3 MB
// of it the picture).
const previewHeldFactor = 8

// sharePreview is what is kept of a share for link previews.
type sharePreview struct {
	summary preview.Summary
	png     []byte
	etag    string
}

func (p *sharePreview) size() int64 {
	s := &p.summary
	return int64(len(p.png) + len(s.Name) + len(s.Focus) + len(s.Counts) + len(s.Title) + len(s.Description) + 256)
}

func previewETag(id string) string { return `"` + previewVersion + "-" + id + `"` }

// handlePreview answers a share's picture. A client that has it (If-None-Match) gets a 304
// without the share being looked at. Drawing a picture not in the cache counts against the
// client's conversion rate and takes a conversion slot.
func (s *Server) handlePreview(w http.ResponseWriter, r *http.Request) {
	id := chi.URLParam(r, "id")
	if !share.ValidID(id) {
		s.writeError(w, r, errorf(http.StatusNotFound, "no such share"))
		return
	}
	etag := previewETag(id)
	h := w.Header()
	if etagMatches(r.Header.Get("If-None-Match"), etag) {
		previewCacheHeaders(h, etag)
		w.WriteHeader(http.StatusNotModified)
		return
	}
	if p := s.previews.get(id); p != nil {
		writePreview(w, r, p)
		return
	}
	s.convertRate(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, err := s.previewOf(r.Context(), id)
		if err != nil {
			if errors.Is(err, errPreviewBusy) {
				w.Header().Set("Retry-After", strconv.Itoa(retryAfter))
				err = &apiError{Status: http.StatusServiceUnavailable, Message: "the server is busy drawing previews: try again in a moment"}
			}
			s.writeError(w, r, s.storeError(w, r, notFound(err)))
			return
		}
		writePreview(w, r, p)
	})).ServeHTTP(w, r)
}

func previewCacheHeaders(h http.Header, etag string) {
	h.Set("ETag", etag)
	// A share never changes, and the ETag names the drawing: any cache may keep it for good.
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	// Other sites show the picture: forums embed it, chat clients load it from their pages.
	h.Set("Cross-Origin-Resource-Policy", "cross-origin")
}

func writePreview(w http.ResponseWriter, r *http.Request, p *sharePreview) {
	h := w.Header()
	previewCacheHeaders(h, p.etag)
	h.Set("Content-Type", "image/png")
	h.Set("Content-Length", strconv.Itoa(len(p.png)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(p.png)
	}
}

// errPreviewBusy reports a preview that could not get its share of the body budget.
var errPreviewBusy = errors.New("preview: the body budget is full")

// previewOf returns the preview of share id, made now if it is not in the cache. Requests
// for one share wait for the one making it.
func (s *Server) previewOf(ctx context.Context, id string) (*sharePreview, error) {
	if p := s.previews.get(id); p != nil {
		return p, nil
	}
	ch := s.previewCalls.DoChan(id, func() (any, error) {
		// A making that ended between the look-up above and this call has kept its
		// preview: no second read.
		if p := s.previews.get(id); p != nil {
			return p, nil
		}
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), previewTimeout)
		defer cancel()
		p, err := s.makePreview(ctx, id)
		if err == nil {
			s.previews.put(id, p)
		}
		return p, err
	})
	select {
	case res := <-ch:
		if res.Err != nil {
			return nil, res.Err
		}
		return res.Val.(*sharePreview), nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// makePreview reads share id and makes its preview, within the body budget and a
// conversion slot like any conversion.
func (s *Server) makePreview(ctx context.Context, id string) (*sharePreview, error) {
	info, err := s.store.Stat(ctx, id)
	if err != nil {
		return nil, err
	}
	if n := min(previewHeldFactor*info.Size, s.budget.size); n > 0 {
		release, err := s.budget.reserve(ctx, n)
		if err != nil {
			s.metrics.bodyRefused()
			return nil, errPreviewBusy
		}
		defer release()
	}
	release, err := s.conversions.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	data, err := s.store.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	s.previewsDrawn.Inc()
	return renderShare(data, id)
}

// renderShare makes the preview of a share as stored: {"document": ..., "view": ...}. A
// share that does not decode (written to the store by other means, or by an older server)
// gets a picture and a description saying so, kept like any other: it will not decode
// next time either.
func renderShare(data []byte, id string) (*sharePreview, error) {
	p := &sharePreview{etag: previewETag(id)}
	img, err := drawShare(data, &p.summary)
	if err != nil {
		p.summary = preview.Summary{Name: "Shared graph", Title: "Shared graph",
			Description: "A share of the AINB editor that this server cannot read"}
		img = preview.RenderMessage(p.summary.Name, "", "This share cannot be drawn: "+err.Error())
	}
	p.png, err = preview.EncodePNG(img)
	return p, err
}

// drawShare describes a share into sum and draws its picture.
func drawShare(data []byte, sum *preview.Summary) (*image.RGBA, error) {
	req, err := parseShareRequest(data)
	if err != nil {
		return nil, err
	}
	if shareKind(req) == ShareTree {
		var t struct{ Name, Kind string }
		if err := json.Unmarshal(req.Document, &t); err != nil {
			return nil, err
		}
		*sum = preview.DescribeTree(t.Name, t.Kind)
		return preview.RenderTree(t.Name, t.Kind), nil
	}
	doc, err := decodeDocument(req.Document)
	if err != nil {
		return nil, err
	}
	if err := doc.CheckFormat(); err != nil {
		return nil, err
	}
	v := preview.ParseView(req.View)
	*sum = preview.Describe(doc, v)
	return preview.Render(doc, v), nil
}

// registerPreviewMetrics adds the previews' metrics to the server's registry.
func (s *Server) registerPreviewMetrics() {
	s.previewsDrawn = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "ainb_previews_drawn_total",
		Help: "Share previews (picture and description) made from a read of the share; the rest came from the cache.",
	})
	s.metrics.reg.MustRegister(s.previewsDrawn,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "ainb_preview_cache_bytes",
			Help: "Bytes of share previews kept in memory (preview-cache caps them).",
		}, func() float64 { return float64(s.previews.bytes()) }))
}

// previewCache keeps previews, the least recently used going first past its byte cap.
type previewCache struct {
	mu    sync.Mutex
	cap   int64
	used  int64
	order *list.List // of *cacheEntry, most recent first
	byID  map[string]*list.Element
}

type cacheEntry struct {
	id string
	p  *sharePreview
}

func newPreviewCache(capBytes int64) *previewCache {
	return &previewCache{cap: capBytes, order: list.New(), byID: map[string]*list.Element{}}
}

func (c *previewCache) get(id string) *sharePreview {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byID[id]
	if !ok {
		return nil
	}
	c.order.MoveToFront(e)
	return e.Value.(*cacheEntry).p
}

func (c *previewCache) put(id string, p *sharePreview) {
	n := p.size()
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byID[id]; ok || n > c.cap {
		return
	}
	c.byID[id] = c.order.PushFront(&cacheEntry{id, p})
	c.used += n
	for c.used > c.cap {
		last := c.order.Back()
		e := last.Value.(*cacheEntry)
		c.order.Remove(last)
		delete(c.byID, e.id)
		c.used -= e.p.size()
	}
}

// bytes is what the cache holds.
func (c *previewCache) bytes() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.used
}
