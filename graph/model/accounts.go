package model

import "time"

// Account is the account of the calling API key (GraphQL `viewer`).
type Account struct {
	Object    string    `json:"object"`
	ID        string    `json:"id"`
	Email     string    `json:"email"`
	Plan      string    `json:"plan"`
	FeeRate   string    `json:"fee_rate"`
	CreatedAt time.Time `json:"created_at"`
}

// Plan is a pricing plan with its platform fee.
type Plan struct {
	Object       string `json:"object"`
	ID           string `json:"id"`
	Name         string `json:"name"`
	FeeRate      string `json:"fee_rate"`
	MonthlyPrice int    `json:"monthly_price"`
	Currency     string `json:"currency"`
}

// PlanList is the list envelope of plans (never more than one page).
type PlanList struct {
	Object     string  `json:"object"`
	Data       []*Plan `json:"data"`
	HasMore    bool    `json:"has_more"`
	NextCursor *string `json:"next_cursor"`
}
