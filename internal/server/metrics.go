package server

import (
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metrics are the server's Prometheus metrics, in a registry of its own: the process may run
// several servers (the tests do), and each counts only its own requests.
//
// Labels are bounded sets: a request is labelled by its chi route pattern ("/api/shares/{id}",
// never the id), by one of the methods the router knows, and by its status code.
type metrics struct {
	reg           *prometheus.Registry
	requests      *prometheus.CounterVec
	duration      *prometheus.HistogramVec
	requestBytes  *prometheus.CounterVec
	responseBytes *prometheus.CounterVec
	storeErrors   prometheus.Counter
	bodyRefusals  prometheus.Counter
}

// durationBuckets span a health check (well under a millisecond) to the parse or build of
// the largest files, which takes seconds on a busy machine.
var durationBuckets = []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60}

func newMetrics(conversions limiter, budget *bodyBudget) *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "ainb_http_requests_total",
			Help: "Requests answered, by route pattern, method and status code.",
		}, []string{"route", "method", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "ainb_http_request_duration_seconds",
			Help:    "Time from a request's headers to the end of its answer, by route pattern.",
			Buckets: durationBuckets,
		}, []string{"route"}),
		requestBytes: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "ainb_http_request_body_bytes_total",
			Help: "Request body bytes read, by route pattern.",
		}, []string{"route"}),
		responseBytes: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "ainb_http_response_body_bytes_total",
			Help: "Response body bytes written (compressed when the answer is), by route pattern.",
		}, []string{"route"}),
		storeErrors: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "ainb_share_store_errors_total",
			Help: "Share store operations that failed other than for a missing share or an oversized one.",
		}),
		bodyRefusals: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "ainb_body_budget_refusals_total",
			Help: "Requests refused with 503 because the body budget (request bodies, and shares a store hands out whole) stayed full.",
		}),
	}
	m.reg.MustRegister(m.requests, m.duration, m.requestBytes, m.responseBytes, m.storeErrors, m.bodyRefusals,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "ainb_conversions_in_flight",
			Help: "Parses, builds and layouts holding a conversion slot.",
		}, func() float64 { return float64(len(conversions)) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "ainb_conversions_max",
			Help: "Conversion slots (max-conversions).",
		}, func() float64 { return float64(cap(conversions)) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "ainb_body_budget_reserved_bytes",
			Help: "Body budget bytes reserved by requests in flight: their bodies, and shares read whole.",
		}, func() float64 { return float64(budget.reserved.Load()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "ainb_body_budget_bytes",
			Help: "The request body budget (body-budget).",
		}, func() float64 { return float64(budget.size) }),
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	)
	return m
}

// storeError counts a failed share store operation. ErrNotFound and ErrTooLarge are answers,
// not failures, and are not counted.
func (m *metrics) storeError() { m.storeErrors.Inc() }

func (m *metrics) bodyRefused() { m.bodyRefusals.Inc() }

// observe counts one answered request.
func (m *metrics) observe(route, method string, status int, seconds float64, in, out int64) {
	m.requests.WithLabelValues(route, method, statusLabel(status)).Inc()
	m.duration.WithLabelValues(route).Observe(seconds)
	m.requestBytes.WithLabelValues(route).Add(float64(in))
	m.responseBytes.WithLabelValues(route).Add(float64(out))
}

// handler serves the registry in the Prometheus text format.
func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}
