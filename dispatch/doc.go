// Package dispatch owns the mechanics shared by the dispatchers that
// deliver from a table used as a queue (the webhook delivery records, the
// mail outbox): when to claim, how many attempts run at once, the
// goroutine of each attempt, the batching and retrying of the outcomes'
// writes, the wake-ups, and stopping. A Loop knows nothing of what it
// delivers: its hooks say what is claimed, how an item is sent, how a
// batch of outcomes is recorded and when an outcome's retry is due. Rules
// of one dispatcher (per-endpoint caps, dedicated connections, releasing a
// canceled attempt's claim) live in that dispatcher, behind the hooks.
//
// Timing:
//
//   - A claim takes at most Batch items and never more than the room left
//     under MaxInFlight. A claim that took as many as it asked for is
//     followed by another as room allows; after a full claim, the loop
//     claims again once a quarter of the room is back (or none is in use),
//     not per attempt.
//   - The loop wakes on Listen's notifications (work was committed), on
//     the earliest retry an outcome it wrote scheduled, when room comes
//     back, and every PollInterval without being woken: the claims that
//     other processes left to expire.
//   - One writer records the outcomes: whatever arrived while the previous
//     batch was written goes in the next (at most 4 × Batch). A write is
//     tried again with backoff for a minute (a database failover), each try
//     within WriteTimeout; a batch that cannot be written is logged and
//     dropped, its claims left to expire.
package dispatch
