package mail

import (
	"context"
	"log/slog"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"commerce/db"
	"commerce/dispatch"
	"commerce/telemetry"
)

// Dispatcher defaults.
const (
	// DispatchMaxInFlight bounds the SMTP sessions under way in one
	// process (a relay limits the connections of one client; 16 is well
	// under the usual limits).
	DispatchMaxInFlight = 16
	// DispatchBatch is the most messages one claim takes.
	DispatchBatch = 64
	// DispatchPollInterval is how often the dispatcher looks for due
	// messages without being woken: the claims of processes that died.
	DispatchPollInterval = time.Second
)

// Dispatcher delivers the due messages of mail_messages, in every process
// that works (commerce serve and commerce worker), on the loop the webhook
// dispatcher runs too (dispatch.Loop): it claims due messages in batches for
// claimFor, sends each on a goroutine, and writes the outcomes in batches.
// It wakes on NOTIFY mail_messages (sent by the transaction that stores a
// message, when it commits), on the earliest retry it scheduled, when room
// comes back after a full claim, and every PollInterval for what other
// processes left (expired claims).
type Dispatcher struct {
	DB     *db.DB
	Sender *Sender
	Log    *slog.Logger
	// Tracer, when tracing is on, makes a span of each attempt, linked to
	// the span that stored the message (nil: none).
	Tracer trace.Tracer
	// MaxInFlight, Batch and PollInterval default to the Dispatch
	// constants.
	MaxInFlight, Batch int
	PollInterval       time.Duration

	loop *dispatch.Loop[Message, outcome]
}

// Start runs the dispatcher until Stop.
func (w *Dispatcher) Start(ctx context.Context) {
	if w.MaxInFlight <= 0 {
		w.MaxInFlight = DispatchMaxInFlight
	}
	if w.Batch <= 0 {
		w.Batch = DispatchBatch
	}
	if w.PollInterval <= 0 {
		w.PollInterval = DispatchPollInterval
	}
	if w.Log == nil {
		w.Log = slog.Default()
	}
	w.loop = &dispatch.Loop[Message, outcome]{
		MaxInFlight:  w.MaxInFlight,
		Batch:        w.Batch,
		PollInterval: w.PollInterval,
		WriteTimeout: finishTimeout,
		Log:          w.Log,
		ClaimFailed:  "claim mail",
		RecordFailed: "record mail attempts",
		Listen: func(ctx context.Context, wake func()) {
			db.Listen(ctx, w.DB, notifyChannel, wake, w.Log)
		},
		Claim: func(ctx context.Context, limit int) ([]Message, error) {
			return claim(ctx, w.DB.Pool, limit, nil, nil, w.Sender.idDomain)
		},
		Send: w.send,
		// A write is tried again for a minute (a sent outcome is recorded even
		// after its claim expired, see recordQuery); an outcome that
		// cannot be written leaves its claim to expire, and the message is
		// sent again, as the same message.
		Record: func(ctx context.Context, batch []outcome) error {
			return record(ctx, w.DB.Pool, batch)
		},
		NextAttempt: func(o outcome) *time.Time { return o.next },
	}
	w.loop.Start(ctx)
}

// Stop stops claiming, lets the attempts under way finish until ctx ends,
// then cancels them (their claims are released: another process sends
// them) and writes the outcomes.
func (w *Dispatcher) Stop(ctx context.Context) {
	if w.loop != nil {
		w.loop.Stop(ctx)
	}
}

// send makes one message's attempt; an attempt canceled (the process
// stopping) releases its claim instead.
func (w *Dispatcher) send(ctx context.Context, m *Message) (outcome, bool) {
	var span trace.Span
	if w.Tracer != nil {
		ctx, span = w.Tracer.Start(ctx, "mail.send "+m.Template, trace.WithSpanKind(trace.SpanKindClient),
			telemetry.LinkTo(m.Traceparent), trace.WithAttributes(
				attribute.String("mail.message_id", m.ID), attribute.String("mail.template", m.Template),
				attribute.Int("mail.attempt", m.Attempts)))
		defer span.End()
	}
	o, ok := w.Sender.attempt(ctx, m)
	if span != nil {
		span.SetAttributes(attribute.String("mail.status", o.status))
		if o.err != nil {
			span.SetStatus(codes.Error, *o.err)
		}
	}
	if !ok {
		rctx, cancel := context.WithTimeout(context.Background(), finishTimeout)
		defer cancel()
		if err := release(rctx, w.DB.Pool, m); err != nil {
			w.Log.Warn("release mail claim", "message_id", m.ID, "error", err)
		}
	}
	return o, ok
}
