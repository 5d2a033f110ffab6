// Package deploy holds what runs beside the service, not in it: nginx's
// configuration (nginx/), Prometheus's alerting rules and an example scrape
// configuration (prometheus/), and a Grafana dashboard (grafana/). Its tests
// check them: promtool checks and unit-tests the rules, and every query of
// the dashboard is valid PromQL. (That every metric they name is one the
// service exposes is proven by the metrics package's purchase test.)
package deploy
